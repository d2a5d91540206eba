// Which engine the server's tests run on: SQLite unless the run asks for PostgreSQL
// (LECTERN_TEST_ENGINE=postgres, set by the `sync-server-postgres` project in vitest.config.ts). The
// shared helpers (memory-db.ts, service-context.ts, start-test-server.ts) open their database here, so
// one suite runs on both engines.
import { join } from 'node:path';
import type { Db, Dialect } from '../db/database';
import { openSqlite } from '../db/connection';
import { openPostgres } from '../db/postgres/connection';
import { recordTouched } from '../services/feed-rows';
import { createTestDatabase, dropTestDatabase } from './postgres-cluster';

export const TEST_ENGINE_ENV = 'LECTERN_TEST_ENGINE';

/** The engine this test run uses. */
export function testEngine(): Dialect {
  return process.env[TEST_ENGINE_ENV] === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * A fresh, empty, migrated database on the run's engine: an in-memory SQLite, or a new PostgreSQL database
 * (copied from the migrated template) that close() deletes. Transactions record the change feed on both.
 */
export async function openTestDatabase(): Promise<Db> {
  return (await openTestDatabaseWithEnv()).db;
}

/**
 * openTestDatabase, with the settings the services need beside it: DATABASE_URL on PostgreSQL (its job
 * runner, pg-boss, opens connections of its own), none on SQLite.
 */
export async function openTestDatabaseWithEnv(): Promise<{ db: Db; env: Record<string, string> }> {
  if (testEngine() === 'sqlite') return { db: openSqlite(':memory:'), env: {} };
  const url = await createTestDatabase();
  const db = await openPostgres(url, { recordFeed: recordTouched });
  return {
    db: {
      ...db,
      close: async () => {
        await db.close();
        await dropTestDatabase(url);
      },
    },
    env: { DATABASE_URL: url },
  };
}

/** The PostgreSQL database of each data folder a test keeps across restarts. */
const databaseOfDataDir = new Map<string, string>();

/**
 * The server settings that put a test server on the run's engine: none for SQLite (its file in DATA_DIR),
 * DATABASE_URL of a new database for PostgreSQL, with the function that deletes it once the server closed.
 * A server started on a data folder the test keeps (a restart) gets that folder's database each time, kept
 * until the run's cluster ends, as the folder is.
 */
export async function testServerDatabase(
  keptDataDir?: string,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (testEngine() === 'sqlite') return { env: {}, drop: async () => {} };
  if (keptDataDir) {
    let url = databaseOfDataDir.get(keptDataDir);
    if (!url) {
      url = await createTestDatabase();
      databaseOfDataDir.set(keptDataDir, url);
    }
    return { env: { DATABASE_URL: url }, drop: async () => {} };
  }
  const url = await createTestDatabase();
  return {
    env: { DATABASE_URL: url },
    drop: async () => {
      await dropTestDatabase(url);
      for (const [dataDir, each] of databaseOfDataDir) if (each === url) databaseOfDataDir.delete(dataDir);
    },
  };
}

/** Notes which database the test server on `dataDir` serves from (openServerDatabase finds it). */
export function noteServerDatabase(dataDir: string, env: Record<string, string>): void {
  if (env.DATABASE_URL) databaseOfDataDir.set(dataDir, env.DATABASE_URL);
}

/** The settings that start another node on the database of the test server on `dataDir` (two nodes). */
export function serverDatabaseEnv(dataDir: string): Record<string, string> {
  const url = databaseOfDataDir.get(dataDir);
  return url ? { DATABASE_URL: url } : {};
}

/**
 * The database the test server on `dataDir` serves from (or served from, before a restart), opened beside
 * it for a test to look at or plant rows: its SQLite file, or its PostgreSQL database. Close it after use.
 */
export async function openServerDatabase(dataDir: string): Promise<Db> {
  if (testEngine() === 'sqlite') return openSqlite(join(dataDir, 'lectern.sqlite'));
  let url = databaseOfDataDir.get(dataDir);
  if (!url) {
    // A data folder whose server has not started yet: the database it will start on.
    url = await createTestDatabase();
    databaseOfDataDir.set(dataDir, url);
  }
  return await openPostgres(url, { recordFeed: recordTouched });
}
