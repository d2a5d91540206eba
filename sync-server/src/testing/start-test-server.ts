// Starts a real server on a free loopback port, for tests and benchmarks: on a temporary SQLite file, or on a
// new PostgreSQL database when the test run is on PostgreSQL (testing/test-database.ts).
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../app';
import { loadConfig } from '../config';
import { noteServerDatabase, testServerDatabase } from './test-database';

export interface TestServer {
  url: string;
  dataDir: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startTestServer(
  options: {
    env?: Record<string, string>;
    appDir?: string;
    logStream?: NodeJS.WritableStream;
    /** Start on the data of an earlier server (a restart); that folder is then left for the caller. */
    dataDir?: string;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'lectern-test-'));
  // A test that names its own DATABASE_URL keeps it; a restart (dataDir given) finds its database again.
  const database =
    options.env?.DATABASE_URL !== undefined
      ? { env: {}, drop: async () => {} }
      : await testServerDatabase(options.dataDir);
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      JWT_SECRET: 'test-secret-'.padEnd(48, 'x'),
      LOG_LEVEL: 'silent',
      ...database.env,
      ...options.env,
    },
    { appDir: options.appDir ?? null },
  );
  noteServerDatabase(dataDir, { ...database.env, ...options.env });
  const app = await buildServer(config, { logStream: options.logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    app,
    close: async () => {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}
