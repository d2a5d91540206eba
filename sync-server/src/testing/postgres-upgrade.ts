// For tests of a PostgreSQL migration: a new test database as a node of the version before left it, the
// migrations up to a given one run and none after, so that the test can write what that version wrote
// and then let openPostgres run the rest.
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase } from './postgres-cluster';

const MIGRATIONS = fileURLToPath(new URL('../db/postgres/migrations', import.meta.url));

/** A new test database migrated up to migration `lastIdx` (its journal's idx) only; its URL. */
export async function databaseMigratedTo(lastIdx: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-pg-upgrade-'));
  try {
    const older = join(dir, 'migrations');
    cpSync(MIGRATIONS, older, { recursive: true });
    const journalFile = join(older, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
    journal.entries = journal.entries.filter((entry) => entry.idx <= lastIdx);
    writeFileSync(journalFile, JSON.stringify(journal));
    const url = await createTestDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // The test database comes migrated to the newest: start it again from nothing.
      await client.query(
        'DROP SCHEMA public CASCADE; CREATE SCHEMA public; DROP SCHEMA IF EXISTS drizzle CASCADE',
      );
      await migrate(drizzle(client), { migrationsFolder: older });
    } finally {
      await client.end();
    }
    return url;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
