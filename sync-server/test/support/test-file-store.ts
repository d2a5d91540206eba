// Where a test server keeps its files: the data folder, or a local S3 (s3rver) when the test file is run
// once more on S3 (image-archive-s3.test.ts and screenshots-s3.test.ts call `keepFilesInS3()` first).
import { LocalFileStore } from '../../src/storage/index';
import { startLocalS3, type LocalS3 } from '../../src/testing/local-s3';

let inS3 = false;

/** The test file imported next runs its server with S3_BUCKET set (one module graph per test file). */
export function keepFilesInS3(): void {
  inS3 = true;
}

export interface TestFileStore {
  /** The settings to start the server with (none for the data folder). */
  env: Record<string, string>;
  /** The keys the server has stored under `prefix` ('images/', 'uploads/<user>/'), wherever they are. */
  keys(dataDir: string, prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startTestFileStore(): Promise<TestFileStore> {
  if (!inS3) {
    return {
      env: {},
      keys: (dataDir, prefix) => new LocalFileStore(dataDir).list(prefix),
      close: async () => {},
    };
  }
  const s3: LocalS3 = await startLocalS3();
  return { env: s3.env, keys: (_dataDir, prefix) => s3.keys(prefix), close: () => s3.close() };
}
