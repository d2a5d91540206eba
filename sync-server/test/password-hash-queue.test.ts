// The queue of password hashes is bounded: a crowd of sign-ups and sign-ins from many networks (each under
// its own per-network cap) is partly turned away with 429 and Retry-After instead of piling up without end,
// nothing fails with 500, and the server keeps answering meanwhile.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WAITING_HASHES, SCRYPT_PARAMS, setPasswordHashCost } from '../src/services/passwords';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, type ApiAnswer } from './support/api-client';

// Passwords hashed at the production cost, as a server out of the tests hashes them.
setPasswordHashCost(SCRYPT_PARAMS);

let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  // One reverse proxy in front, so each request can come from its own network.
  server = await startTestServer({ env: { TRUST_PROXY: '1' } });
  api = new ApiClient(server.url);
});
afterAll(() => server.close());

const from = (index: number) => ({ headers: { 'x-forwarded-for': `198.18.${index >> 8}.${index & 255}` } });

describe('the password hash queue', () => {
  it('turns a crowd of sign-ups and sign-ins away with 429 and Retry-After once full, never 500', async () => {
    const crowd = 120;
    const requests: Promise<ApiAnswer>[] = [];
    for (let index = 1; index <= crowd; index += 1) {
      requests.push(
        index % 2 === 0
          ? api.post(
              '/auth/register',
              { email: `crowd${index}@example.com`, password: 'correct horse battery', username: 'crowd' },
              from(index),
            )
          : api.post('/auth/login', { email: `nobody${index}@example.com`, password: 'guess' }, from(index)),
      );
    }
    const burst = Promise.all(requests);
    const started = performance.now();
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    const healthMs = performance.now() - started;
    const answers = await burst;
    const statuses = answers.map((answer) => answer.status);
    const busy = answers.filter((answer) => answer.status === 429);
    console.log(
      `${crowd} concurrent sign-ups/sign-ins: ${statuses.filter((s) => s === 201).length} × 201, ` +
        `${statuses.filter((s) => s === 401).length} × 401, ${busy.length} × 429; ` +
        `GET /api/health meanwhile: ${healthMs.toFixed(0)} ms`,
    );
    expect(healthMs).toBeLessThan(2_000);
    expect(statuses.every((status) => [201, 401, 429].includes(status))).toBe(true);
    // At least the running two and the full queue got through; the rest of the burst was turned away.
    expect(crowd - busy.length).toBeGreaterThanOrEqual(MAX_WAITING_HASHES + 2);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.body).toEqual({ error: SERVER_ERRORS.signInsBusy });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Both kinds were turned away, and once the queue drained a refused sign-up goes through.
    const refused = answers.flatMap((answer, index) => (answer.status === 429 ? [index + 1] : []));
    expect(refused.some((index) => index % 2 === 0)).toBe(true);
    expect(refused.some((index) => index % 2 === 1)).toBe(true);
    const retry = refused.find((index) => index % 2 === 0) ?? 0;
    const again = await api.post(
      '/auth/register',
      { email: `crowd${retry}@example.com`, password: 'correct horse battery', username: 'crowd' },
      from(retry),
    );
    expect(again.status).toBe(201);
  }, 120_000);
});
