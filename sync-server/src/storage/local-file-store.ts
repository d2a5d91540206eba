// Files in the data folder, as the server has always kept them: `DATA_DIR/uploads/<user>/<article>.<ext>`
// and `DATA_DIR/images/ab/<hash>.<ext>`. Folders 0700 and files 0600, like the rest of DATA_DIR; each file
// written under a temporary name and renamed, so a reader never sees half a file.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import {
  checkFileKey,
  checkFilePrefix,
  checkFileSize,
  UnsafeFileKeyError,
  type FileStore,
} from './file-store';

const TEMPORARY = /\.part$/;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export class LocalFileStore implements FileStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file's path, checked twice: the key's own rule, then that the path stays inside the folder. */
  private pathOf(key: string): string {
    return this.inside(key, resolve(this.root, ...checkFileKey(key).split('/')));
  }

  /** A folder's path (a prefix without its '/'), checked the same two ways. */
  private folderOf(prefix: string, use: 'delete' | 'list'): string {
    return this.inside(prefix, resolve(this.root, ...checkFilePrefix(prefix, use).slice(0, -1).split('/')));
  }

  private inside(asked: string, path: string): string {
    if (!path.startsWith(this.root + sep)) throw new UnsafeFileKeyError(asked);
    return path;
  }

  async put(key: string, bytes: Buffer, _contentType: string): Promise<void> {
    const path = this.pathOf(key);
    checkFileSize(key, bytes.length);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    try {
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deleteAll(prefix: string): Promise<void> {
    await rm(this.folderOf(prefix, 'delete'), { recursive: true, force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const folder = this.folderOf(prefix, 'list');
    try {
      const entries = await readdir(folder, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile() && !TEMPORARY.test(entry.name))
        .map((entry) => relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/'))
        .sort();
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  async close(): Promise<void> {}
}
