// A DATABASE_URL the server can't use stops `npm run serve` at once with its reason, never a stack trace,
// never the password, and never a silent fall-back to SQLite; a usable one is what the server serves from.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseStartError, openDatabaseFromConfig } from '../src/db/open';
import { createTestDatabase, stopTestCluster } from '../src/testing/postgres-cluster';
import { ApiClient, signUp } from './support/api-client';

afterAll(stopTestCluster);

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'x'.repeat(48);

function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-start-'));
  const startedAt = Date.now();
  try {
    const run = spawnSync(join(repoRoot, 'node_modules/.bin/tsx'), ['sync-server/src/main.ts'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return {
      ...run,
      seconds: (Date.now() - startedAt) / 1000,
      sqliteMade: existsSync(join(dataDir, 'lectern.sqlite')),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function expectRefused(run: ReturnType<typeof start>, message: string) {
  expect(run.stderr).toContain(`Lectern cannot start: ${message}`);
  expect(run.status).toBe(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr).not.toContain('hunter2');
  expect(run.sqliteMade).toBe(false);
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('DATABASE_URL at start', () => {
  it.each([
    ['mysql://lectern:hunter2@db.example/lectern', 'it starts with "mysql:".'],
    ['sqlite:./data/lectern.sqlite', 'it starts with "sqlite:".'],
    ['db.example:5432/lectern', 'it starts with "db.example:".'],
  ])('refuses %s, naming the variable', (url, detail) => {
    expectRefused(
      start({ DATABASE_URL: url, JWT_SECRET: SECRET }),
      `DATABASE_URL must be a PostgreSQL address (postgres://user:password@host:5432/database or postgresql://…); ${detail}`,
    );
  });

  it('requires JWT_SECRET, which every node must share', () => {
    expectRefused(
      start({ DATABASE_URL: 'postgres://lectern:hunter2@127.0.0.1:5432/lectern' }),
      'JWT_SECRET is required when DATABASE_URL is set: every server node must sign and check tokens with the same secret.',
    );
  });

  it('stops within seconds when nothing answers at the address', async () => {
    const port = await closedPort();
    const run = start({
      DATABASE_URL: `postgresql://lectern:hunter2@127.0.0.1:${port}/lectern`,
      JWT_SECRET: SECRET,
    });
    expectRefused(
      run,
      `PostgreSQL at 127.0.0.1:${port} (DATABASE_URL) could not be reached: connect ECONNREFUSED 127.0.0.1:${port}. ` +
        'Check that PostgreSQL runs there and DATABASE_URL names it.',
    );
    console.log(`refused start (nothing at the port): ${run.seconds.toFixed(1)} s, tsx start included`);
    expect(run.seconds).toBeLessThan(15);
  });

  it('stops when PostgreSQL refuses the login, or has no such database', async () => {
    const url = new URL(await createTestDatabase());
    // The test cluster is reached through its Unix socket: the message names its folder.
    const server = `${url.searchParams.get('host')}:${url.port}`;
    const stranger = new URL(url);
    stranger.username = 'nobody';
    stranger.password = 'hunter2';
    expectRefused(
      start({ DATABASE_URL: stranger.href, JWT_SECRET: SECRET }),
      `PostgreSQL at ${server} (DATABASE_URL) refused the login of user "nobody": role "nobody" does not exist. Check the user and password in DATABASE_URL.`,
    );
    const missing = new URL(url);
    missing.pathname = '/no_such_library';
    expectRefused(
      start({ DATABASE_URL: missing.href, JWT_SECRET: SECRET }),
      `PostgreSQL at ${server} (DATABASE_URL) has no database "no_such_library": database "no_such_library" does not exist.`,
    );
  });

  it('migrates a reachable PostgreSQL, serves from it and makes no SQLite file', async () => {
    const admin = new URL(await createTestDatabase());
    const client = new pg.Client({ connectionString: admin.href });
    await client.connect();
    await client.query('CREATE DATABASE fresh_library');
    await client.end();
    const url = new URL(admin);
    url.pathname = '/fresh_library';
    const port = await closedPort();
    const server = await serve({ DATABASE_URL: url.href, JWT_SECRET: SECRET, PORT: String(port) });
    try {
      const api = new ApiClient(`http://127.0.0.1:${port}`);
      expect((await api.get('/health')).status).toBe(200);
      const { client: reader, email } = await signUp(api);
      const saved = await reader.post('/articles', {
        url: 'https://example.com/kale',
        html: '<html><head><title>Kale</title></head><body><article><p>Kale and compost.</p></article></body></html>',
        tags: ['garden'],
      });
      expect(saved.status).toBe(201);
      expect(saved.body.article).toMatchObject({ title: 'Kale', tags: ['garden'] });
      expect((await reader.get(`/articles/${saved.body.article.id}`)).body.article.title).toBe('Kale');
      const check = new pg.Client({ connectionString: url.href });
      await check.connect();
      const users = await check.query('SELECT email FROM users');
      const articles = await check.query('SELECT title FROM articles');
      await check.end();
      expect(users.rows).toEqual([{ email }]);
      expect(articles.rows).toEqual([{ title: 'Kale' }]);
      expect(existsSync(join(server.dataDir, 'lectern.sqlite'))).toBe(false);
    } finally {
      await server.stop();
    }
  });
});

/** `npm run serve` in a child process, answered once it listens; stop() ends it and removes its folder. */
async function serve(env: Record<string, string>): Promise<{ dataDir: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-start-'));
  const child = spawn(join(repoRoot, 'node_modules/.bin/tsx'), ['sync-server/src/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await ended;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start within 60 s: ${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Lectern is running')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server ended (${code}): ${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { dataDir, stop };
}

describe('openDatabaseFromConfig', () => {
  it('opens SQLite when DATABASE_URL is unset', async () => {
    const db = await openDatabaseFromConfig({ databaseFile: ':memory:', databaseUrl: null });
    expect(db.dialect).toBe('sqlite');
    expect('sqlite' in db && (db.sqlite as { memory: boolean }).memory).toBe(true);
    await db.close();
  });

  it('gives up within its 5 seconds on an address that accepts connections and never answers', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const startedAt = Date.now();
    try {
      await expect(
        openDatabaseFromConfig({
          databaseFile: ':memory:',
          databaseUrl: `postgres://lectern:hunter2@127.0.0.1:${port}/lectern`,
        }),
      ).rejects.toThrow(
        new DatabaseStartError(
          `PostgreSQL at 127.0.0.1:${port} (DATABASE_URL) did not answer within 5 seconds. ` +
            'Check that PostgreSQL runs there and DATABASE_URL names it.',
        ),
      );
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(4_900);
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });

  it('opens PostgreSQL when it is set', async () => {
    const db = await openDatabaseFromConfig({
      databaseFile: ':memory:',
      databaseUrl: await createTestDatabase(),
    });
    expect('dialect' in db && db.dialect).toBe('postgres');
    await db.close();
  });
});
