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

describe('S3_BUCKET and the S3_* settings', () => {
  const S3 = {
    S3_BUCKET: 'lectern-files',
    S3_REGION: 'eu-west-1',
    S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'secret/key+example',
  };
  const s3 = (env: Record<string, string | undefined>) =>
    loadConfig({ DATA_DIR: freshFolder(), JWT_SECRET: LONG_SECRET, ...env }).s3;

  it('keeps files in DATA_DIR when S3_BUCKET is unset', () => {
    expect(s3({})).toBeNull();
    expect(s3({ S3_BUCKET: '' })).toBeNull();
  });

  it('takes the bucket, region and keys; AWS itself and virtual-hosted addresses by default', () => {
    expect(s3(S3)).toEqual({
      bucket: 'lectern-files',
      endpoint: null,
      region: 'eu-west-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret/key+example',
      forcePathStyle: false,
    });
  });

  it('takes an S3-compatible endpoint and path-style addresses', () => {
    expect(s3({ ...S3, S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' })).toMatchObject({
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    });
    expect(s3({ ...S3, S3_FORCE_PATH_STYLE: 'false' })?.forcePathStyle).toBe(false);
  });

  it.each(['S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)(
    'refuses a bucket without %s, naming it',
    (name) => {
      expect(() => s3({ ...S3, [name]: undefined })).toThrow(
        `S3_BUCKET is set, so S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set too; missing: ${name}`,
      );
    },
  );

  it.each(['yes', '1', 'TRUE', 'on'])('refuses S3_FORCE_PATH_STYLE=%s (true or false only)', (value) => {
    expect(() => s3({ ...S3, S3_FORCE_PATH_STYLE: value })).toThrow(
      `S3_FORCE_PATH_STYLE must be true or false, got "${value}"`,
    );
  });

  it('refuses an endpoint that is not an http(s) address', () => {
    expect(() => s3({ ...S3, S3_ENDPOINT: 'minio:9000' })).toThrow(
      'S3_ENDPOINT must be an http:// or https:// address, got "minio:9000"',
    );
  });

  it('refuses S3 settings without S3_BUCKET rather than keep the files in DATA_DIR unasked', () => {
    expect(() => s3({ S3_ENDPOINT: 'http://minio:9000', S3_REGION: 'eu-west-1' })).toThrow(
      'S3_ENDPOINT, S3_REGION are set but S3_BUCKET is not.',
    );
  });
});

describe('ROLE and the job settings of a node', () => {
  const config = (env: Record<string, string | undefined>) =>
    loadConfig({ DATA_DIR: freshFolder(), JWT_SECRET: LONG_SECRET, ...env });

  it('runs requests and jobs both by default, with 4 jobs at once, 2 per user, lost after 15 minutes', () => {
    expect(config({})).toMatchObject({
      role: 'both',
      jobConcurrency: 4,
      jobConcurrencyPerUser: 2,
      jobExpireSeconds: 900,
    });
  });

  it.each(['web', 'worker', 'both'] as const)('takes ROLE=%s beside DATABASE_URL', (role) => {
    expect(config({ ROLE: role, DATABASE_URL: 'postgres://lectern@db.internal/lectern' }).role).toBe(role);
  });

  it.each(['web', 'worker'] as const)('refuses ROLE=%s on SQLite, where one process does both', (role) => {
    expect(() => config({ ROLE: role })).toThrow(
      `ROLE=${role} needs DATABASE_URL: on SQLite one process answers requests and runs the jobs (ROLE=both).`,
    );
    expect(config({ ROLE: 'both' }).role).toBe('both');
  });

  it('takes the concurrency of this node and the expiry of a lost job', () => {
    expect(
      config({ JOB_CONCURRENCY: '16', JOB_CONCURRENCY_PER_USER: '3', JOB_EXPIRE_SECONDS: '120' }),
    ).toMatchObject({ jobConcurrency: 16, jobConcurrencyPerUser: 3, jobExpireSeconds: 120 });
  });

  it.each(['api', 'WEB', 'web,worker', 'all'])('refuses ROLE=%s at start with a clear error', (role) => {
    expect(() => config({ ROLE: role })).toThrow(
      `ROLE must be web (answer requests only), worker (run background jobs only) or both (the default), got "${role}"`,
    );
  });

  it('refuses a JOB_EXPIRE_SECONDS that is not a whole number', () => {
    expect(() => config({ JOB_EXPIRE_SECONDS: '10m' })).toThrow(
      'JOB_EXPIRE_SECONDS must be a whole number, got "10m"',
    );
  });

  it('refuses a JOB_EXPIRE_SECONDS of 24 hours or more at start (pg-boss would refuse every job)', () => {
    expect(config({ JOB_EXPIRE_SECONDS: '86399' }).jobExpireSeconds).toBe(86_399);
    expect(() => config({ JOB_EXPIRE_SECONDS: '86400' })).toThrow(
      'JOB_EXPIRE_SECONDS must be less than 86400 (24 hours, the most pg-boss allows), got "86400"',
    );
  });
});

describe('DATABASE_URL', () => {
  const databaseUrl = (value: string | undefined) =>
    loadConfig({ DATA_DIR: freshFolder(), JWT_SECRET: LONG_SECRET, DATABASE_URL: value }).databaseUrl;

  it('is SQLite (null) when unset or blank, and a postgres:// or postgresql:// address as given', () => {
    expect(databaseUrl(undefined)).toBeNull();
    expect(databaseUrl('  ')).toBeNull();
    expect(databaseUrl(' postgres://lectern:pw@db:5432/lectern ')).toBe(
      'postgres://lectern:pw@db:5432/lectern',
    );
    expect(databaseUrl('POSTGRESQL://lectern@db/lectern')).toBe('POSTGRESQL://lectern@db/lectern');
  });

  it('refuses an address with no scheme, naming none of it', () => {
    expect(() => databaseUrl('/var/run/postgresql')).toThrow(
      'DATABASE_URL must be a PostgreSQL address (postgres://user:password@host:5432/database or postgresql://…); it has no scheme.',
    );
  });

  it.each([
    'postgres://lectern:pw@[db/lectern',
    'postgres://lectern:50%off@db/lectern',
    'postgres://db/lib%zz',
  ])('refuses %s, which no driver can read, without repeating it', (value) => {
    expect(() => databaseUrl(value)).toThrow(
      /^DATABASE_URL is not a valid address \(postgres:\/\/user:password@host:5432\/database\)\.$/,
    );
  });
});
