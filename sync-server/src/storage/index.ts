// The server's file store: S3 when the configuration names a bucket (S3_BUCKET), else the data folder.
import type { Config } from '../config';
import type { FileStore } from './file-store';
import { LocalFileStore } from './local-file-store';
import { S3FileStore } from './s3-file-store';

export function createFileStore(config: Pick<Config, 'dataDir' | 's3'>): FileStore {
  return config.s3 ? new S3FileStore(config.s3) : new LocalFileStore(config.dataDir);
}

export * from './file-store';
export { LocalFileStore } from './local-file-store';
export { S3FileStore } from './s3-file-store';
