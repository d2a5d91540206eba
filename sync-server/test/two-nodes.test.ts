// Two server processes on one database, over real HTTP: this test's server and a second one in a process
// of its own, on the same DATA_DIR (one SQLite file), as two nodes behind a load balancer. What must hold across them
// lives in the database: the sign-in and sign-up limits (reaching the other node escapes nothing, even with
// many attempts at once through both), sessions (a logout on one is refused by the other at once), and
// Google sign-in codes (issued by one, traded once on either).
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleEnv, startStandInGoogle, type StandInGoogle } from '../src/testing/stand-in-google';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { serverDatabaseEnv } from '../src/testing/test-database';
import { ApiClient, type ApiAnswer } from './support/api-client';
import { startServerProcess, type ServerProcess } from './support/server-process';

const PER_EMAIL = 10;
const PER_IP = 20;
const REGISTRATIONS_PER_IP = 4;

let provider: StandInGoogle;
let nodeA: TestServer;
let nodeB: ServerProcess;
let a: ApiClient;
let b: ApiClient;

beforeAll(async () => {
  provider = await startStandInGoogle();
  const env = {
    ...googleEnv(provider),
    LOGIN_FAILURES_PER_EMAIL: String(PER_EMAIL),
    LOGIN_FAILURES_PER_IP: String(PER_IP),
    REGISTRATIONS_PER_IP: String(REGISTRATIONS_PER_IP),
    // One reverse proxy in front of both nodes: it appends the address it saw to X-Forwarded-For.
    TRUST_PROXY: '1',
  };
  nodeA = await startTestServer({ env });
  // The second node starts on the first one's database (its SQLite file, or its PostgreSQL database in the
  // PostgreSQL run) with the same JWT_SECRET, in its own process, so nothing in memory is shared.
  nodeB = await startServerProcess({
    ...env,
    ...serverDatabaseEnv(nodeA.dataDir),
    DATA_DIR: nodeA.dataDir,
    JWT_SECRET: 'test-secret-'.padEnd(48, 'x'),
  });
  a = new ApiClient(nodeA.url);
  b = new ApiClient(nodeB.url);
});
afterAll(async () => {
  await nodeB.stop();
  await nodeA.close();
  await provider.close();
});

/** A request as the proxy passes it on: from `client`, to one node. */
const from = (client: string) => ({ headers: { 'x-forwarded-for': client } });

let readers = 0;

/** A new account, signed up from its own network so that it uses none of the sign-up limit tested here. */
async function signUpFrom(node: ApiClient, address: string) {
  readers += 1;
  const email = `reader${readers}@example.com`;
  const password = 'correct horse battery';
  const answer = await node.post(
    '/auth/register',
    { email, password, username: `Reader ${readers}` },
    from(address),
  );
  expect(answer.status).toBe(201);
  return { token: answer.body.token as string, email, password };
}

const statuses = (answers: ApiAnswer[]) => answers.map((answer) => answer.status);

function expectLimited(answer: ApiAnswer, message: string) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ error: message });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

// Each test runs dozens of password checks on two processes sharing two cores with the rest of the suite:
// 16 to 20 s alone on a loaded machine, past the project's 30 s when other files run beside it.
describe('two nodes on one database', { timeout: 120_000 }, () => {
  it('login failures spread over both nodes meet the per-email limit', async () => {
    const { email, password } = await signUpFrom(a, '198.18.0.1');
    const answers: ApiAnswer[] = [];
    for (let guess = 0; guess < PER_EMAIL; guess += 1) {
      const node = guess % 2 === 0 ? a : b;
      answers.push(
        await node.post('/auth/login', { email, password: `guess ${guess}` }, from(`198.18.1.${guess}`)),
      );
    }
    expect(statuses(answers)).toEqual(Array.from({ length: PER_EMAIL }, () => 401));
    for (const node of [a, b]) {
      const refused = await node.post('/auth/login', { email, password: 'one more' }, from('198.18.2.1'));
      expectLimited(refused, SERVER_ERRORS.tooManyLogins);
      // The limit holds for the right password too, on both nodes.
      expectLimited(
        await node.post('/auth/login', { email, password }, from('198.18.2.2')),
        SERVER_ERRORS.tooManyLogins,
      );
    }
  });

  it('200 concurrent wrong sign-ins for one email, through both nodes, try at most the limit', async () => {
    const { email } = await signUpFrom(b, '198.19.200.1');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        // Each from its own network, so only the per-email limit stands in the way.
        (index % 2 === 0 ? a : b).post(
          '/auth/login',
          { email, password: `guess ${index}` },
          from(`198.19.${Math.floor(index / 250)}.${(index % 250) + 1}`),
        ),
      ),
    );
    const tried = answers.filter((answer) => answer.status === 401).length;
    expect(answers.filter((answer) => answer.status !== 401 && answer.status !== 429)).toEqual([]);
    expect(tried).toBeGreaterThan(0);
    expect(tried).toBeLessThanOrEqual(PER_EMAIL);
    for (const answer of answers.filter((each) => each.status === 429))
      expect([SERVER_ERRORS.tooManyLogins, SERVER_ERRORS.signInsInProgress]).toContain(answer.body.error);
    // What the burst left, one at a time on alternate nodes: PER_EMAIL tries in all, not one more.
    let later = 0;
    for (let guess = 0; guess < PER_EMAIL; guess += 1) {
      const answer = await (guess % 2 === 0 ? b : a).post(
        '/auth/login',
        { email, password: `later ${guess}` },
        from('198.19.9.9'),
      );
      if (answer.status === 401) later += 1;
      else expectLimited(answer, SERVER_ERRORS.tooManyLogins);
    }
    expect(tried + later).toBe(PER_EMAIL);
  });

  it('login failures from one address spread over both nodes meet the per-IP limit', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        (index % 2 === 0 ? a : b).post(
          '/auth/login',
          { email: `nobody${index}@example.com`, password: 'guess' },
          from('203.0.113.60'),
        ),
      ),
    );
    const tried = answers.filter((answer) => answer.status === 401).length;
    expect(tried).toBeGreaterThan(0);
    expect(tried).toBeLessThanOrEqual(PER_IP);
    let later = 0;
    for (let guess = 0; guess < PER_IP; guess += 1) {
      const answer = await (guess % 2 === 0 ? a : b).post(
        '/auth/login',
        { email: `later${guess}@example.com`, password: 'guess' },
        from('203.0.113.60'),
      );
      if (answer.status === 401) later += 1;
      else expectLimited(answer, SERVER_ERRORS.tooManyLogins);
    }
    expect(tried + later).toBe(PER_IP);
  });

  it('sign-ups from one network spread over both nodes, many at once, meet the per-IP limit', async () => {
    const register = (node: ApiClient, index: number) =>
      node.post(
        '/auth/register',
        { email: `household${index}@example.com`, password: 'correct horse battery', username: `H${index}` },
        from('192.0.2.77'),
      );
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) => register(index % 2 === 0 ? a : b, index)),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(REGISTRATIONS_PER_IP);
    for (const answer of answers.filter((each) => each.status !== 201))
      expectLimited(answer, SERVER_ERRORS.tooManyRegistrations);
    for (const [index, node] of [a, b].entries())
      expectLimited(await register(node, 100 + index), SERVER_ERRORS.tooManyRegistrations);
    // Another network is another count.
    const neighbour = await a.post(
      '/auth/register',
      { email: 'neighbour@example.com', password: 'correct horse battery', username: 'N' },
      from('192.0.2.78'),
    );
    expect(neighbour.status).toBe(201);
  });

  it('a token revoked on one node is refused by the other at once', async () => {
    const { token, email, password } = await signUpFrom(a, '198.51.100.29');
    const tag = await a.as(token).post('/tags', { name: 'shared' });
    expect(tag.status).toBe(201);
    const read = (node: ApiClient) => node.as(token).get('/tags');
    const seen = await read(b);
    expect(seen.status).toBe(200);
    expect(seen.body.tags.map((each: { id: string }) => each.id)).toEqual([tag.body.tag.id]);
    expect((await a.as(token).post('/auth/logout')).status).toBe(204);
    // No wait: the very next request to the other node.
    const refused = await read(b);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: SERVER_ERRORS.unauthorized });
    expect((await b.as(token).get('/auth/me')).status).toBe(401);
    // The article route checks the session in its own query (plugins/auth.ts): refused there too.
    const article = await b.as(token).get('/articles/no-such-article');
    expect(article.status).toBe(401);
    expect(article.body).toEqual({ error: SERVER_ERRORS.unauthorized });
    // So does search.
    const search = await b.as(token).get('/articles/search?q=shared');
    expect(search.status).toBe(401);
    expect(search.body).toEqual({ error: SERVER_ERRORS.unauthorized });

    // And the other way round, for every session of the user (sign out everywhere).
    const laptop = (await b.post('/auth/login', { email, password }, from('198.51.100.30'))).body
      .token as string;
    const phone = (await a.post('/auth/login', { email, password }, from('198.51.100.31'))).body
      .token as string;
    expect((await a.as(laptop).get('/auth/me')).status).toBe(200);
    expect((await b.as(laptop).post('/auth/logout-all')).status).toBe(204);
    for (const node of [a, b])
      for (const each of [laptop, phone]) expect((await node.as(each).get('/auth/me')).status).toBe(401);
  });

  it('a Google sign-in code issued by one node is redeemed by the other, once', async () => {
    const nonce = randomBytes(24).toString('base64url');
    const started = await fetch(`${nodeA.url}/api/auth/google?nonce=${nonce}`, { redirect: 'manual' });
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const back = await fetch(
      `${nodeA.url}/api/auth/google/callback?${new URLSearchParams({ code: 'good-code', state })}`,
      { redirect: 'manual', headers: { cookie } },
    );
    const code =
      new URL(back.headers.get('location') ?? '', 'http://lectern.test').searchParams.get('code') ?? '';
    expect(code.length).toBeGreaterThanOrEqual(32);
    // The tab's trade reaches the other node, three times at once: one wins.
    const trades = await Promise.all([
      b.post('/auth/google/exchange', { code, nonce }),
      b.post('/auth/google/exchange', { code, nonce }),
      b.post('/auth/google/exchange', { code, nonce }),
    ]);
    expect(statuses(trades).sort()).toEqual([200, 400, 400]);
    const won = trades.find((trade) => trade.status === 200);
    expect(won?.body.user.email).toBe('grace@example.com');
    for (const lost of trades.filter((trade) => trade.status === 400))
      expect(lost.body).toEqual({ error: SERVER_ERRORS.googleSignInExpired });
    expect((await a.as(won?.body.token).get('/auth/me')).status).toBe(200);
    const again = await a.post('/auth/google/exchange', { code, nonce });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: SERVER_ERRORS.googleSignInExpired });
  });
});
