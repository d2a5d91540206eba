// The throwaway PostgreSQL the server's PostgreSQL tests run on: it starts by itself, hands out clean
// migrated databases, and leaves nothing behind.
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import * as postgresSchema from '../db/postgres/schema';
import {
  createTestDatabase,
  findPostgresBinaries,
  startPostgresCluster,
  stopTestCluster,
  useTestClusterSettings,
} from './postgres-cluster';

afterAll(stopTestCluster);

async function query<Row extends pg.QueryResultRow>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('the test PostgreSQL cluster', () => {
  it('starts on a free port, answers queries through its socket, and is gone with its folder once closed', async () => {
    // A setting of the caller's (the benchmarks size the server's memory) comes on top of its own.
    const cluster = await startPostgresCluster(['-c work_mem=7MB']);
    const [row] = await query<{ version: string; fsync: string; address: string | null; workMem: string }>(
      cluster.url,
      "SELECT version() AS version, current_setting('fsync') AS fsync, inet_server_addr() AS address, current_setting('work_mem') AS \"workMem\"",
    );
    expect(row?.workMem).toBe('7MB');
    // No server address: the connection came through the Unix socket, not loopback TCP.
    expect(row?.address).toBeNull();
    expect(row?.version).toMatch(/^PostgreSQL 1[5-9]|^PostgreSQL [2-9]\d/);
    expect(row?.fsync).toBe('off');
    const [folder] = await query<{ folder: string }>(
      cluster.url,
      "SELECT current_setting('data_directory') AS folder",
    );
    expect(existsSync(folder!.folder)).toBe(true);
    await cluster.close();
    expect(existsSync(folder!.folder)).toBe(false);
    await expect(query(cluster.url, 'SELECT 1')).rejects.toThrow(/ENOENT/); // its socket went with its folder
  });

  it('hands each test a fresh, migrated, empty database of its own', async () => {
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    // Settings for this process's cluster are given before it starts, never silently after.
    expect(() => useTestClusterSettings(['-c work_mem=7MB'])).toThrow(/started already/);
    expect(first).not.toBe(second);
    await query(
      first,
      "INSERT INTO users (id, email, created_at) VALUES ('u1', 'a@example.com', '2026-01-01T00:00:00.000Z')",
    );
    expect(await query(first, 'SELECT id FROM users')).toEqual([{ id: 'u1' }]);
    expect(await query(second, 'SELECT id FROM users')).toEqual([]);
    const tables = await query<{ name: string }>(
      second,
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    );
    // Every table of the PostgreSQL schema, and nothing else but the search's word list and its articles'
    // vectors (migrations/0009 and 0011, read by the search's SQL functions only, as FTS5's tables are not
    // in SQLite's schema).
    const declared = Object.values(postgresSchema)
      .filter((value) => is(value, PgTable))
      .map((table) => getTableName(table));
    expect(declared).toContain('change_log');
    expect(tables.map((table) => table.name).sort()).toEqual(
      [...declared, 'article_search_vectors', 'search_words'].sort(),
    );
  });

  it('finds the newest /usr/lib/postgresql/<version>/bin first, then PATH', () => {
    const root = mkdtempSync(join(tmpdir(), 'lectern-pg-bin-'));
    try {
      for (const version of ['9.6', '15', '16']) {
        mkdirSync(join(root, 'lib', version, 'bin'), { recursive: true });
        for (const binary of ['initdb', 'pg_ctl'])
          writeFileSync(join(root, 'lib', version, 'bin', binary), '');
      }
      expect(findPostgresBinaries(join(root, 'lib'), '')).toEqual({
        initdb: join(root, 'lib', '16', 'bin', 'initdb'),
        pgCtl: join(root, 'lib', '16', 'bin', 'pg_ctl'),
      });
      expect(findPostgresBinaries(join(root, 'none'), join(root, 'lib', '15', 'bin'))).toEqual({
        initdb: join(root, 'lib', '15', 'bin', 'initdb'),
        pgCtl: join(root, 'lib', '15', 'bin', 'pg_ctl'),
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('says clearly when PostgreSQL is not installed', () => {
    expect(() => findPostgresBinaries('/nonexistent/postgresql', '/nonexistent/bin')).toThrow(
      "PostgreSQL is not installed: no initdb and pg_ctl in /nonexistent/postgresql/<version>/bin or on PATH. Install Debian's postgresql package (apt-get install postgresql; .ci/run does it).",
    );
  });
});
