// Where a test server keeps its files: the data folder, or a local S3 (s3rver). The image archiving and
// screenshot tests run on both (suites/image-archive.ts and suites/screenshots.ts, each called by two files).
import { LocalFileStore } from '../../src/storage/index';
import { startLocalS3, type LocalS3 } from '../../src/testing/local-s3';

export type TestFileStoreKind = 'folder' | 's3';

export interface TestFileStore {
  /** The settings to start the server with (none for the data folder). */
  env: Record<string, string>;
  /** The keys the server has stored under `prefix` ('images/', 'uploads/<user>/'), wherever they are. */
  keys(dataDir: string, prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startTestFileStore(kind: TestFileStoreKind): Promise<TestFileStore> {
  if (kind === 'folder') {
    return {
      env: {},
      keys: (dataDir, prefix) => new LocalFileStore(dataDir).list(prefix),
      close: async () => {},
    };
  }
  const s3: LocalS3 = await startLocalS3();
  return { env: s3.env, keys: (_dataDir, prefix) => s3.keys(prefix), close: () => s3.close() };
}
