// A local S3-compatible server for tests (s3rver from the npm registry): a free loopback port, its objects
// in a temporary folder, one empty bucket. Answers the S3_* settings that point a server at it.
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** s3rver checks signatures against these. */
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';
export const LOCAL_S3_REGION = 'us-east-1';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the objects (`<folder>/<bucket>/<key>._S3rver_object`). */
  folder: string;
  /** The settings a server needs to keep its files here. */
  env: {
    S3_BUCKET: string;
    S3_ENDPOINT: string;
    S3_REGION: string;
    S3_ACCESS_KEY_ID: string;
    S3_SECRET_ACCESS_KEY: string;
    S3_FORCE_PATH_STYLE: string;
  };
  /** Every key in the bucket (under `prefix`), sorted: read with a client of the test's own. */
  keys(prefix?: string): Promise<string[]>;
  /** Takes the server down (connections refused), then back up on the same port with the same objects. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startLocalS3(bucket = 'lectern-files'): Promise<LocalS3> {
  const folder = mkdtempSync(join(tmpdir(), 'lectern-s3-'));
  const open = async (port: number) => {
    const server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory: folder,
      configureBuckets: [{ name: bucket }],
    });
    return { server, port: (await server.run()).port };
  };
  let { server, port } = await open(0);
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    server.httpServer?.closeAllConnections();
    await server.close();
  };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: LOCAL_S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
  });
  return {
    endpoint,
    bucket,
    folder,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: LOCAL_S3_REGION,
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: SECRET_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async keys(prefix = '') {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort();
    },
    stop,
    async start() {
      if (running) return;
      ({ server, port } = await open(port));
      running = true;
    },
    async close() {
      client.destroy();
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
