import { SERVER_ERRORS } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;
beforeAll(async () => {
  world = await startWorld({ REGISTRATIONS_PER_IP: '3' });
});
afterAll(() => world.close());

describe('the server as a whole', () => {
  it('answers GET /api/health', async () => {
    const answer = await world.api.get('/health');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
  });

  it('sends security headers on every response, errors included', async () => {
    for (const answer of [
      await world.api.get('/health'),
      await world.api.get('/articles'),
      await world.api.get('/nope'),
    ]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('answers unknown API paths with 404 {error}', async () => {
    const answer = await world.api.get('/does-not-exist');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.notFound });
  });

  it('caps request bodies with 413', async () => {
    const { client } = await signUp(world.api);
    const answer = await client.post('/tags', { name: 'x', padding: 'y'.repeat(1024 * 1024 + 10) });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.tooLarge });
    expect((await client.get('/tags')).body.tags).toEqual([]);
  });

  it('answers malformed JSON with 400', async () => {
    const { client } = await signUp(world.api);
    const answer = await client.post('/tags', '{"name": ');
    expect(answer.status).toBe(400);
    expect(typeof answer.body.error).toBe('string');
  });

  it('rate-limits registrations per IP with 429 and Retry-After', async () => {
    // The limit here is 3 an hour; two tests above signed up already.
    const attempt = () =>
      world.api.post('/auth/register', {
        email: `burst-${Math.random()}@example.com`,
        password: 'long enough password',
        username: 'burst',
      });
    expect((await attempt()).status).toBe(201);
    const answer = await attempt();
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.tooManyRegistrations });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
