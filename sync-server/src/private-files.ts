// The data folder holds the database, uploads and the generated secret: only the server's own user may
// read them. Modes are set on what exists already too, since a folder made by hand or by an older version
// may be world-readable.
import { chmodSync, existsSync, openSync, closeSync, statSync } from 'node:fs';

/**
 * Gives `path` `mode` if it is ours and has another. Someone else's folder (a mounted volume) is left as
 * it is, with a warning when we may not change it: the server still runs.
 */
export function restrictMode(path: string, mode: number): void {
  const stats = statSync(path);
  if ((stats.mode & 0o777) === mode) return;
  if (typeof process.getuid === 'function' && stats.uid !== process.getuid()) {
    console.warn(`${path} belongs to another user; its mode stays ${(stats.mode & 0o777).toString(8)}`);
    return;
  }
  try {
    chmodSync(path, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    console.warn(`Could not make ${path} private (mode ${mode.toString(8)}): permission denied`);
  }
}

/**
 * Creates `file` empty with mode 0600 when it does not exist yet (SQLite gives its -wal and -shm files
 * the database file's mode), else makes it 0600.
 */
export function privateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  restrictMode(file, 0o600);
}
