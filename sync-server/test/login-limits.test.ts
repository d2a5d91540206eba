// The sign-in limits under attack, over real HTTP: concurrent guesses can't outrun the count, forged
// X-Forwarded-For hops behind one trusted proxy don't buy fresh buckets, and an IPv6 /64 is one network.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRYPT_PARAMS, setPasswordHashCost } from '../src/services/passwords';
import { QUICK_PASSWORD_HASH_COST } from '../src/testing/quick-password-hashing';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp, type ApiAnswer } from './support/api-client';

/**
 * The bursts run at the production cost, as a server out of the tests hashes: the half second each check
 * takes is the window a count taken too late would let guesses through. The other tests count one guess
 * at a time, where the cost changes nothing but their length.
 */
async function atProductionCost<T>(run: () => Promise<T>): Promise<T> {
  setPasswordHashCost(SCRYPT_PARAMS);
  try {
    return await run();
  } finally {
    setPasswordHashCost(QUICK_PASSWORD_HASH_COST);
  }
}

const PER_EMAIL = 10;
const PER_IP = 20;

let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      LOGIN_FAILURES_PER_EMAIL: String(PER_EMAIL),
      LOGIN_FAILURES_PER_IP: String(PER_IP),
      REGISTRATIONS_PER_IP: '1000',
      // One reverse proxy in front: it appends the address it saw to X-Forwarded-For.
      TRUST_PROXY: '1',
    },
  });
  api = new ApiClient(server.url);
});
afterAll(() => server.close());

/** A sign-in as it reaches the server through the proxy: whatever the client claimed, then its address. */
function loginVia(client: string, body: object, forged?: string) {
  const chain = forged ? `${forged}, ${client}` : client;
  return api.post('/auth/login', body, { headers: { 'x-forwarded-for': chain } });
}

function tally(answers: ApiAnswer[]) {
  const count = (status: number) => answers.filter((answer) => answer.status === status).length;
  return { unauthorized: count(401), limited: count(429), other: answers.length - count(401) - count(429) };
}

function expectLimitedAnswers(answers: ApiAnswer[]) {
  for (const answer of answers.filter((each) => each.status === 429)) {
    // Over the failure count, or over the sign-ins checked at once (a shorter wait, and it says so).
    expect([SERVER_ERRORS.tooManyLogins, SERVER_ERRORS.signInsInProgress]).toContain(answer.body.error);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  }
}

describe('sign-in limits', () => {
  it('lets at most LOGIN_FAILURES_PER_EMAIL of 200 concurrent wrong sign-ins for one email be tried', () =>
    atProductionCost(async () => {
      const { email } = await signUp(api);
      const burst = Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          // Each from its own network, so only the per-email limit stands in the way.
          loginVia(`198.18.${Math.floor(index / 250)}.${(index % 250) + 1}`, {
            email,
            password: `guess ${index}`,
          }),
        ),
      );
      // Hashes run off the main thread: the server keeps answering everyone else meanwhile.
      const started = performance.now();
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      const healthMs = performance.now() - started;
      const answers = await burst;
      console.log(`GET /api/health during 200 concurrent sign-ins: ${healthMs.toFixed(0)} ms`);
      expect(healthMs).toBeLessThan(2_000);
      const counts = tally(answers);
      expect(counts.other).toBe(0);
      expect(counts.unauthorized).toBeGreaterThan(0);
      expect(counts.unauthorized).toBeLessThanOrEqual(PER_EMAIL);
      expect(counts.limited).toBe(200 - counts.unauthorized);
      expectLimitedAnswers(answers);
      // Guesses that follow get only what the burst left: PER_EMAIL in all, then 429 even for the password.
      let later = 0;
      for (let guess = 0; guess < PER_EMAIL; guess += 1) {
        const answer = await loginVia('198.18.9.9', { email, password: `later guess ${guess}` });
        if (answer.status === 401) later += 1;
        else expect(answer.status).toBe(429);
      }
      expect(counts.unauthorized + later).toBe(PER_EMAIL);
      expect((await loginVia('198.18.9.9', { email, password: 'correct horse battery' })).status).toBe(429);
    }));

  it('lets at most LOGIN_FAILURES_PER_IP of 200 concurrent wrong sign-ins from one address be tried', () =>
    atProductionCost(async () => {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          loginVia('203.0.113.50', { email: `victim${index}@example.com`, password: 'guess' }),
        ),
      );
      const counts = tally(answers);
      expect(counts.other).toBe(0);
      expect(counts.unauthorized).toBeGreaterThan(0);
      expect(counts.unauthorized).toBeLessThanOrEqual(PER_IP);
      expectLimitedAnswers(answers);
    }));

  it('does not count right passwords, even among concurrent wrong ones', async () => {
    const { email, password } = await signUp(api);
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all([
        loginVia('198.19.1.1', { email, password }),
        loginVia('198.19.1.2', { email, password }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    }
    for (let attempt = 0; attempt < PER_EMAIL - 1; attempt += 1) {
      expect((await loginVia('198.19.1.3', { email, password: 'wrong' })).status).toBe(401);
    }
    expect((await loginVia('198.19.1.3', { email, password })).status).toBe(200);
  });

  it('with TRUST_PROXY=1, a forged X-Forwarded-For chain does not escape the per-IP limit', async () => {
    const attacker = '203.0.113.7';
    const answers: ApiAnswer[] = [];
    for (let index = 0; index < PER_IP + 10; index += 1) {
      answers.push(
        await loginVia(
          attacker,
          { email: `forged${index}@example.com`, password: 'guess' },
          `10.${index}.0.1, 192.0.2.${index}`,
        ),
      );
    }
    expect(answers.slice(0, PER_IP).every((answer) => answer.status === 401)).toBe(true);
    expect(answers.slice(PER_IP).every((answer) => answer.status === 429)).toBe(true);
    expectLimitedAnswers(answers);
    // The proxy's word about another client is still believed: it has its own bucket.
    const neighbour = await loginVia('198.51.100.9', { email: 'forged0@example.com', password: 'guess' });
    expect(neighbour.status).toBe(401);
  });

  it('counts every address of one IPv6 /64 as one network, and another /64 apart', async () => {
    const answers: ApiAnswer[] = [];
    for (let index = 0; index < PER_IP + 5; index += 1) {
      answers.push(
        await loginVia(`2001:db8:77:1:${(index + 1).toString(16)}:aaaa:bbbb:cccc`, {
          email: `v6-${index}@example.com`,
          password: 'guess',
        }),
      );
    }
    expect(answers.slice(0, PER_IP).every((answer) => answer.status === 401)).toBe(true);
    expect(answers.slice(PER_IP).every((answer) => answer.status === 429)).toBe(true);
    const otherPrefix = await loginVia('2001:db8:77:2::1', { email: 'v6-0@example.com', password: 'guess' });
    expect(otherPrefix.status).toBe(401);
  });
});
