import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { openSqlite } from './db/connection';
import { sql } from 'drizzle-orm';

const folders: string[] = [];
function freshFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'lectern-config-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const LONG_SECRET = 'a'.repeat(32);

describe('JWT_SECRET', () => {
  it.each([['short'], ['x'.repeat(31)], ['é'.repeat(15)]])(
    'refuses a secret under 32 bytes with a clear error (%s)',
    (secret) => {
      expect(() => loadConfig({ DATA_DIR: freshFolder(), JWT_SECRET: secret })).toThrow(
        /JWT_SECRET must be at least 32 bytes long/,
      );
    },
  );

  it('accepts 32 bytes and more', () => {
    expect(loadConfig({ DATA_DIR: freshFolder(), JWT_SECRET: LONG_SECRET }).jwtSecret).toBe(LONG_SECRET);
    expect(loadConfig({ DATA_DIR: freshFolder(), JWT_SECRET: 'é'.repeat(16) }).jwtSecret).toBe(
      'é'.repeat(16),
    );
  });

  it('refuses a short secret kept in the data folder', () => {
    const dataDir = freshFolder();
    writeFileSync(join(dataDir, 'jwt-secret'), 'short\n');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/at least 32 bytes long/);
  });
});

describe('DATA_DIR', () => {
  it('is created readable by the server user only, and so is the generated secret', () => {
    const dataDir = join(freshFolder(), 'nested', 'data');
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const secretFile = join(dataDir, 'jwt-secret');
    expect(existsSync(secretFile)).toBe(true);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(Buffer.byteLength(config.jwtSecret)).toBeGreaterThanOrEqual(32);
  });
});

describe('DATA_DIR made before', () => {
  it('is made readable by the server user only at start, and its database file too', async () => {
    const dataDir = join(freshFolder(), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: LONG_SECRET });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);

    const db = openSqlite(config.databaseFile);
    await db.get(sql`SELECT 1`);
    await db.close();
    expect(statSync(config.databaseFile).mode & 0o777).toBe(0o600);
  });

  it('makes an existing world-readable database file 0600, and its WAL files', async () => {
    const dataDir = freshFolder();
    const file = join(dataDir, 'lectern.sqlite');
    const first = openSqlite(file);
    await first.close();
    chmodSync(file, 0o644);
    const db = openSqlite(file);
    for (const each of [file, `${file}-wal`, `${file}-shm`].filter((path) => existsSync(path)))
      expect(statSync(each).mode & 0o777).toBe(0o600);
    await db.close();
  });
});

describe('TRUST_PROXY', () => {
  const trust = (value: string | undefined) =>
    loadConfig({ DATA_DIR: freshFolder(), JWT_SECRET: LONG_SECRET, TRUST_PROXY: value }).trustProxy;

  it('trusts no proxy by default', () => {
    expect(trust(undefined)).toBe(false);
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
  });

  it('takes a hop count or the proxies’ addresses and CIDR ranges', () => {
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.2')).toEqual(['10.0.0.2']);
    expect(trust(' 10.0.0.0/8, loopback ,2001:db8::/32')).toEqual([
      '10.0.0.0/8',
      'loopback',
      '2001:db8::/32',
    ]);
  });

  it('refuses "true" (every hop) at start with a clear error', () => {
    expect(() => trust('true')).toThrow(/TRUST_PROXY=true would believe every X-Forwarded-For hop/);
  });

  it('refuses what is neither a count nor an address', () => {
    expect(() => trust('proxy.example.com')).toThrow(/"proxy\.example\.com" is neither/);
    expect(() => trust('10.0.0.0/33')).toThrow(/"10\.0\.0\.0\/33" is neither/);
  });
});
