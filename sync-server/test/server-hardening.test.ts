// What the server keeps and writes about its users: password hashes at today's cost (older ones still
// verify and are upgraded), request logs without query strings, and a database that keeps acknowledged
// writes through a power cut.
import { sql } from 'drizzle-orm';
import { openServerDatabase } from '../src/testing/test-database';
import { randomBytes, scryptSync } from 'node:crypto';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../src/db/connection';
import { SCRYPT_PARAMS, setPasswordHashCost } from '../src/services/passwords';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp } from './support/api-client';

// Passwords hashed at the production cost, as a server out of the tests hashes them.
setPasswordHashCost(SCRYPT_PARAMS);

const logLines: string[] = [];
let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString().split('\n').filter(Boolean)));
  server = await startTestServer({
    env: {
      GOOGLE_CLIENT_ID: 'client-1',
      GOOGLE_CLIENT_SECRET: 'secret-1',
      GOOGLE_AUTH_URL: 'http://127.0.0.1:9/authorize',
      REGISTRATIONS_PER_IP: '1000',
    },
    logStream,
  });
  api = new ApiClient(server.url);
});
afterAll(() => server.close());

const storedHash = async (email: string) => {
  const db = await openServerDatabase(server.dataDir);
  try {
    return (await db.get<{ password_hash: string }>(
      sql`SELECT password_hash FROM users WHERE email = ${email}`,
    ))!.password_hash;
  } finally {
    await db.close();
  }
};

describe('password hashes', () => {
  it('are scrypt at N=2^17, r=8, p=1, the cost written into the stored hash', async () => {
    const { email } = await signUp(api);
    const [scheme, n, r, p, salt, hash] = (await storedHash(email)).split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '131072', '8', '1']);
    expect(Buffer.from(salt ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(hash ?? '', 'base64')).toHaveLength(64);
  });

  it('made at the old cost (N=2^14) still verify, and are upgraded at the next successful sign-in', async () => {
    const { email, password } = await signUp(api);
    const salt = randomBytes(16);
    const key = scryptSync(password.normalize('NFKC'), salt, 64, { N: 16384, r: 8, p: 1 });
    const oldHash = ['scrypt', 16384, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    const db = await openServerDatabase(server.dataDir);
    await db.run(sql`UPDATE users SET password_hash = ${oldHash} WHERE email = ${email}`);
    await db.close();

    expect((await api.post('/auth/login', { email, password: 'not the password' })).status).toBe(401);
    expect(await storedHash(email)).toBe(oldHash);

    expect((await api.post('/auth/login', { email, password })).status).toBe(200);
    const upgraded = await storedHash(email);
    expect(upgraded).not.toBe(oldHash);
    expect(upgraded.split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);
    expect((await api.post('/auth/login', { email, password })).status).toBe(200);
  });
});

describe('request logs', () => {
  it('record paths without query strings or share ids: no search terms, saved addresses, sign-in codes or public list links', async () => {
    const { client } = await signUp(api);
    await client.get('/articles/search?q=very-private-search-term');
    await client.get('/articles/metadata/fetch?url=https%3A%2F%2Fsecret.example%2Fpage');
    await fetch(`${server.url}/api/auth/google/callback?code=provider-code-123&state=state-456`, {
      redirect: 'manual',
    });
    await fetch(`${server.url}/auth/callback?code=one-time-code-789`);
    await fetch(`${server.url}/api/lists/public/share-id-secret-111`);
    await fetch(`${server.url}/list/share-id-secret-222`);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const requests = logLines
      .map((line) => JSON.parse(line) as { req?: { url?: string } })
      .filter((line) => line.req);
    const urls = requests.map((line) => line.req?.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/articles/search',
        '/api/articles/metadata/fetch',
        '/api/auth/google/callback',
        '/auth/callback',
        '/api/lists/public/…',
        '/list/…',
      ]),
    );
    const everything = logLines.join('\n');
    for (const secret of [
      'very-private-search-term',
      'secret.example',
      'provider-code-123',
      'state-456',
      'one-time-code-789',
      'share-id-secret-111',
      'share-id-secret-222',
    ])
      expect(everything).not.toContain(secret);
    expect(everything).not.toContain(client.token ?? 'no token');
  });
});

describe('the database', () => {
  it('runs with synchronous=FULL (2), so an answered write survives a power cut', async () => {
    const db = openSqlite(join(server.dataDir, 'second-connection.sqlite'));
    try {
      expect(db.sqlite.pragma('synchronous', { simple: true })).toBe(2);
      expect(db.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      await db.close();
    }
  });
});
