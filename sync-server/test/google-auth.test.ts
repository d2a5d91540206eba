import { SERVER_ERRORS } from '@lectern/shared-schema';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient } from './support/api-client';

/** A stand-in for Google's OAuth endpoints: one known code, one known client. */
async function startStandInProvider() {
  const issued = new Map([['good-code', { sub: 'google-123', email: 'grace@example.com', name: 'Grace' }]]);
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://provider');
    if (url.pathname === '/token' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        const profile = issued.get(form.get('code') ?? '');
        const clientOk = form.get('client_id') === 'client-1' && form.get('client_secret') === 'secret-1';
        if (!profile || !clientOk || form.get('grant_type') !== 'authorization_code') {
          response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
          return;
        }
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: `access-${form.get('code')}`, token_type: 'Bearer' }));
      });
      return;
    }
    if (url.pathname === '/userinfo') {
      const profile = issued.get((request.headers.authorization ?? '').replace('Bearer access-', ''));
      if (!profile) {
        response.writeHead(401).end();
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ...profile, email_verified: true, picture: 'https://example.com/grace.png' }));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let provider: Awaited<ReturnType<typeof startStandInProvider>>;
let server: TestServer;
let unconfigured: TestServer;

beforeAll(async () => {
  provider = await startStandInProvider();
  server = await startTestServer({
    env: {
      GOOGLE_CLIENT_ID: 'client-1',
      GOOGLE_CLIENT_SECRET: 'secret-1',
      GOOGLE_AUTH_URL: `${provider.origin}/authorize`,
      GOOGLE_TOKEN_URL: `${provider.origin}/token`,
      GOOGLE_USERINFO_URL: `${provider.origin}/userinfo`,
      PUBLIC_URL: 'http://lectern.test',
    },
  });
  unconfigured = await startTestServer();
});
afterAll(async () => {
  await server.close();
  await unconfigured.close();
  await provider.close();
});

async function startSignIn() {
  const answer = await fetch(`${server.url}/api/auth/google`, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') ?? '');
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { location, cookie, state: location.searchParams.get('state') ?? '' };
}

async function callback(query: Record<string, string>, cookie: string) {
  const answer = await fetch(`${server.url}/api/auth/google/callback?${new URLSearchParams(query)}`, {
    redirect: 'manual',
    headers: { cookie },
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '', 'http://lectern.test');
}

describe('Google sign-in', () => {
  it('sends the browser to the provider with the client id, redirect uri, scope and a state', async () => {
    const { location, cookie, state } = await startSignIn();
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.origin}/authorize`);
    expect(location.searchParams.get('client_id')).toBe('client-1');
    expect(location.searchParams.get('redirect_uri')).toBe('http://lectern.test/api/auth/google/callback');
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('scope')).toBe('openid email profile');
    expect(state.length).toBeGreaterThanOrEqual(32);
    expect(cookie).toBe(`lectern_oauth_state=${state}`);
  });

  it('comes back to /auth/callback with a token for the Google account, creating the user once', async () => {
    const first = await startSignIn();
    const back = await callback({ code: 'good-code', state: first.state }, first.cookie);
    expect(back.pathname).toBe('/auth/callback');
    const token = back.searchParams.get('token') ?? '';
    expect(token).not.toBe('');
    const me = await new ApiClient(server.url, token).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({
      email: 'grace@example.com',
      username: 'Grace',
      avatarUrl: 'https://example.com/grace.png',
    });

    const second = await startSignIn();
    const again = await callback({ code: 'good-code', state: second.state }, second.cookie);
    const meAgain = await new ApiClient(server.url, again.searchParams.get('token')).get('/auth/me');
    expect(meAgain.body.user.id).toBe(me.body.user.id);
  });

  it('links a Google account to an existing account with the same verified email', async () => {
    const api = new ApiClient(server.url);
    await api.post('/auth/register', {
      email: 'grace@example.com',
      password: 'long enough password',
      username: 'g',
    });
    const { state, cookie } = await startSignIn();
    const back = await callback({ code: 'good-code', state }, cookie);
    expect(back.searchParams.get('token')).toBeTruthy();
  });

  it.each([
    ['a state that does not match the cookie', { code: 'good-code', state: 'forged-state' }],
    ['a code the provider refuses', { code: 'bad-code' }],
    ['the provider reporting an error', { error: 'access_denied' }],
  ])('returns to /auth/callback?error= on %s', async (_case, query) => {
    const { state, cookie } = await startSignIn();
    const back = await callback({ state, ...query }, cookie);
    expect(back.pathname).toBe('/auth/callback');
    expect(back.searchParams.get('error')).toBe(SERVER_ERRORS.googleFailed);
    expect(back.searchParams.get('token')).toBeNull();
  });

  it('returns to /auth/callback?error= with a clear text when Google is not configured', async () => {
    const answer = await fetch(`${unconfigured.url}/api/auth/google`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location') ?? '', 'http://x');
    expect(back.pathname).toBe('/auth/callback');
    expect(back.searchParams.get('error')).toBe(SERVER_ERRORS.googleNotConfigured);
  });
});
