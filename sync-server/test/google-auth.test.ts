import { googleSignInErrorMessage, SERVER_ERRORS } from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import { openServerDatabase } from '../src/testing/test-database';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleEnv, startStandInGoogle, type StandInGoogle } from '../src/testing/stand-in-google';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient } from './support/api-client';

let provider: StandInGoogle;
let server: TestServer;
let unconfigured: TestServer;

beforeAll(async () => {
  provider = await startStandInGoogle();
  server = await startTestServer({ env: googleEnv(provider) });
  unconfigured = await startTestServer();
});
afterAll(async () => {
  await server.close();
  await unconfigured.close();
  await provider.close();
});

const newNonce = () => randomBytes(24).toString('base64url');

async function startSignIn(nonce = newNonce()) {
  const answer = await fetch(`${server.url}/api/auth/google?nonce=${nonce}`, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') ?? '');
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { location, cookie, nonce, state: location.searchParams.get('state') ?? '' };
}

async function callback(query: Record<string, string>, cookie: string) {
  const answer = await fetch(`${server.url}/api/auth/google/callback?${new URLSearchParams(query)}`, {
    redirect: 'manual',
    headers: { cookie },
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '', 'http://lectern.test');
}

const exchange = (body: { code: string; nonce: string }) =>
  new ApiClient(server.url).post('/auth/google/exchange', body);

/** The whole flow for one of the stand-in's codes: where the browser lands, and the nonce it holds. */
async function signInWith(providerCode: string) {
  const { state, cookie, nonce } = await startSignIn();
  const back = await callback({ code: providerCode, state }, cookie);
  return { back, nonce, code: back.searchParams.get('code') ?? '' };
}

async function userRow(email: string) {
  const db = await openServerDatabase(server.dataDir);
  try {
    return await db.get<{ id: string; google_sub: string | null; password_hash: string | null }>(
      sql`SELECT id, google_sub, password_hash FROM users WHERE email = ${email}`,
    );
  } finally {
    await db.close();
  }
}

describe('Google sign-in', () => {
  it('sends the browser to the provider with the client id, redirect uri, scope and a state', async () => {
    const { location, cookie, state, nonce } = await startSignIn();
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.origin}/authorize`);
    expect(location.searchParams.get('client_id')).toBe('client-1');
    expect(location.searchParams.get('redirect_uri')).toBe('http://lectern.test/api/auth/google/callback');
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('scope')).toBe('openid email profile');
    expect(state.length).toBeGreaterThanOrEqual(32);
    expect(location.searchParams.get('state')).not.toContain(nonce);
    expect(cookie).toBe(`lectern_oauth_state=${state}.${nonce}`);
  });

  it.each([
    ['no nonce', ''],
    ['a nonce too short to be one', '?nonce=abc'],
    ['a nonce with other characters', `?nonce=${'a'.repeat(30)}.x`],
  ])('refuses to start without the tab’s nonce (%s)', async (_case, query) => {
    const answer = await fetch(`${server.url}/api/auth/google${query}`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location') ?? '', 'http://x');
    expect(`${back.pathname}${back.search}`).toBe('/auth/callback?error=google_not_started');
  });

  it('comes back to /auth/callback with a one-time code (no token in the URL), traded with the nonce by POST', async () => {
    const first = await signInWith('good-code');
    expect(first.back.pathname).toBe('/auth/callback');
    expect([...first.back.searchParams.keys()]).toEqual(['code']);
    expect(first.code.length).toBeGreaterThanOrEqual(32);
    expect(first.back.toString()).not.toMatch(/token|eyJ/);

    const traded = await exchange({ code: first.code, nonce: first.nonce });
    expect(traded.status).toBe(200);
    expect(Object.keys(traded.body).sort()).toEqual(['token', 'user']);
    const me = await new ApiClient(server.url, traded.body.token).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual(traded.body.user);
    expect(me.body.user).toMatchObject({
      email: 'grace@example.com',
      username: 'Grace',
      avatarUrl: 'https://example.com/grace.png',
    });

    const second = await signInWith('good-code');
    const again = await exchange({ code: second.code, nonce: second.nonce });
    expect(again.body.user.id).toBe(me.body.user.id);
  });

  it('trades a code once only', async () => {
    const { code, nonce } = await signInWith('good-code');
    expect((await exchange({ code, nonce })).status).toBe(200);
    const replay = await exchange({ code, nonce });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: SERVER_ERRORS.googleSignInExpired });
  });

  it('refuses a code with another tab’s nonce, and the code is used up by the try', async () => {
    const { code, nonce } = await signInWith('good-code');
    const stolen = await exchange({ code, nonce: newNonce() });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual({ error: SERVER_ERRORS.googleSignInExpired });
    expect((await exchange({ code, nonce })).status).toBe(400);
  });

  it('refuses an unknown code and a malformed exchange with 400', async () => {
    const unknown = await exchange({ code: 'no-such-code', nonce: newNonce() });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: SERVER_ERRORS.googleSignInExpired });
    const malformed = await new ApiClient(server.url).post('/auth/google/exchange', { code: 'x' });
    expect(malformed.status).toBe(400);
  });

  it('never signs into a password account registered beforehand with the same email', async () => {
    // The attacker registers the victim's address first, with a password of their own.
    const api = new ApiClient(server.url);
    const attacker = await api.post('/auth/register', {
      email: 'victim@gmail.com',
      password: 'attacker password',
      username: 'attacker',
    });
    expect(attacker.status).toBe(201);
    const { back } = await signInWith('victim-code');
    expect(`${back.pathname}${back.search}`).toBe('/auth/callback?error=google_email_taken');
    const row = await userRow('victim@gmail.com');
    expect(row?.id).toBe(attacker.body.user.id);
    expect(row?.google_sub).toBeNull();
    // The password still works for whoever knows it; the Google account got no way in.
    expect(
      (await api.post('/auth/login', { email: 'victim@gmail.com', password: 'attacker password' })).status,
    ).toBe(200);
  });

  it('never re-points an account already tied to a Google id', async () => {
    const owner = await signInWith('good-code');
    expect((await exchange({ code: owner.code, nonce: owner.nonce })).status).toBe(200);
    const { back } = await signInWith('other-sub-code');
    expect(`${back.pathname}${back.search}`).toBe('/auth/callback?error=google_email_taken');
    expect((await userRow('grace@example.com'))?.google_sub).toBe('google-123');
  });

  it('refuses an account whose email Google has not verified, with a fixed code, and makes no account', async () => {
    const { back } = await signInWith('unverified-code');
    expect(`${back.pathname}${back.search}`).toBe('/auth/callback?error=google_email_unverified');
    expect(await userRow('unverified@example.com')).toBeUndefined();
    expect(googleSignInErrorMessage('google_email_unverified')).toBe(SERVER_ERRORS.googleEmailUnverified);
  });

  it('answers a malformed state cookie with /auth/callback?error=google_failed, not a 500', async () => {
    const { state } = await startSignIn();
    for (const cookie of ['lectern_oauth_state=%', 'lectern_oauth_state=%E0%A4%A']) {
      const back = await callback({ code: 'good-code', state }, cookie);
      expect(`${back.pathname}${back.search}`).toBe('/auth/callback?error=google_failed');
    }
  });

  it.each([
    ['a state that does not match the cookie', { code: 'good-code', state: 'forged-state' }],
    ['a code the provider refuses', { code: 'bad-code' }],
    ['the provider reporting an error', { error: 'access_denied' }],
  ])('returns to /auth/callback?error=google_failed on %s', async (_case, query) => {
    const { state, cookie } = await startSignIn();
    const back = await callback({ state, ...query }, cookie);
    expect(`${back.pathname}${back.search}`).toBe('/auth/callback?error=google_failed');
  });

  it('returns to /auth/callback?error=google_failed without the state cookie', async () => {
    const { state } = await startSignIn();
    const back = await callback({ code: 'good-code', state }, '');
    expect(`${back.pathname}${back.search}`).toBe('/auth/callback?error=google_failed');
  });

  it('returns to /auth/callback?error=google_not_configured when Google is not configured', async () => {
    const answer = await fetch(`${unconfigured.url}/api/auth/google?nonce=${newNonce()}`, {
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location') ?? '', 'http://x');
    expect(`${back.pathname}${back.search}`).toBe('/auth/callback?error=google_not_configured');
  });
});
