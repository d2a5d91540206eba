// Where the server keeps its files (screenshots and archived images): one interface, two places. The data
// folder by default (local-file-store.ts); S3-compatible object storage when S3_BUCKET is set
// (s3-file-store.ts), so several server nodes see the same files. Keys look like the local paths under
// DATA_DIR: `uploads/<user>/<article>.png`, `images/ab/<hash>.png`.
import { MAX_SCREENSHOT_BYTES } from '../extraction/image-sniff';

export interface FileStore {
  /** Stores the bytes under `key`, replacing what was there; a reader never sees half a file. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file's bytes, or null when no file has that key. */
  read(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the file; a key with no file is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix`, a folder ending in '/' (an account's uploads). */
  deleteAll(prefix: string): Promise<void>;
  /** Every key under `prefix` (a folder ending in '/'), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Lets go of connections (S3) when the server closes. */
  close(): Promise<void>;
}

/**
 * The largest file a store keeps: a screenshot (MAX_SCREENSHOT_BYTES, the upload limit); an archived image
 * is far smaller (ARCHIVED_IMAGE_MAX_BYTES before an SVG is sanitised). A store writes no more than this,
 * and the S3 store reads no more: a broken or hostile endpoint can't fill the server's memory.
 */
export const MAX_FILE_BYTES = MAX_SCREENSHOT_BYTES;

/** Throws when `size` bytes are more than a store keeps under `key`. */
export function checkFileSize(key: string, size: number): void {
  if (size > MAX_FILE_BYTES)
    throw new Error(`Refused file ${key}: ${size} bytes, more than ${MAX_FILE_BYTES} bytes`);
}

/** A key or prefix that could reach outside the store (`..`, an absolute path, odd characters). */
export class UnsafeFileKeyError extends Error {
  constructor(key: string) {
    super(`Refused file key ${JSON.stringify(key.slice(0, 200))}: not a plain relative name`);
    this.name = 'UnsafeFileKeyError';
  }
}

/**
 * The store could not be reached or did not answer in time (S3 down, refused, too slow). The request that
 * met it is answered 503, not 404: the file may well be there.
 */
export class FileStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FileStoreUnavailableError';
  }
}

/**
 * One part of a key: letters, digits, '-', '_' and '.', not starting with '.' (so never '.' or '..', nor a
 * hidden file). Keys are built by the server from ids and hashes; this is the last line should one ever be
 * built from what a client sent.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const MAX_KEY_LENGTH = 512;

/** Plain segments joined by '/', at least `depth` of them, and not too long. */
function isPlainPath(path: string, depth: number): boolean {
  const parts = path.split('/');
  return path.length <= MAX_KEY_LENGTH && parts.length >= depth && parts.every((part) => SEGMENT.test(part));
}

/**
 * `key` checked: segments joined by '/', none empty, unsafe or hidden, and at least one folder deep: the
 * data folder's own files (the database, the secret) sit at its top and are never a store's files.
 * Throws UnsafeFileKeyError.
 */
export function checkFileKey(key: string): string {
  if (!isPlainPath(key, 2)) throw new UnsafeFileKeyError(key);
  return key;
}

/**
 * A folder prefix checked: plain segments followed by '/'. Deleting takes two segments at least (an
 * account's `uploads/<user>/`, never a whole top folder: all users' uploads); listing takes one.
 */
export function checkFilePrefix(prefix: string, use: 'delete' | 'list'): string {
  if (!prefix.endsWith('/') || !isPlainPath(prefix.slice(0, -1), use === 'delete' ? 2 : 1))
    throw new UnsafeFileKeyError(prefix);
  return prefix;
}
