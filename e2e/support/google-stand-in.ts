// A local stand-in for Google's OAuth endpoints, so "Continue with Google" runs end to end offline: it
// approves every sign-in as one account that has no display name.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface GoogleStandIn {
  origin: string;
  /** Where /authorize sends the browser back to: the server under test, known only once it runs. */
  setServerUrl(url: string): void;
  /** The settings that point the server at this stand-in. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export const GOOGLE_ACCOUNT = { sub: 'google-e2e-1', email: 'nameless@example.com', name: null };

export async function startGoogleStandIn(): Promise<GoogleStandIn> {
  let serverUrl = '';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (url.pathname === '/authorize') {
      const back = new URL('/api/auth/google/callback', serverUrl);
      back.searchParams.set('code', 'e2e-code');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: 'e2e-access', token_type: 'Bearer' }));
      return;
    }
    if (url.pathname === '/userinfo') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ...GOOGLE_ACCOUNT, email_verified: true }));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    origin,
    setServerUrl: (url) => {
      serverUrl = url;
    },
    env: () => ({
      GOOGLE_CLIENT_ID: 'e2e-client',
      GOOGLE_CLIENT_SECRET: 'e2e-secret',
      GOOGLE_AUTH_URL: `${origin}/authorize`,
      GOOGLE_TOKEN_URL: `${origin}/token`,
      GOOGLE_USERINFO_URL: `${origin}/userinfo`,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs the whole Google sign-in over HTTP, as a browser tab and the app would (a nonce of its own, the
 * one-time code of /auth/callback traded by POST), and answers the token it ends with.
 */
export async function googleSignInToken(serverUrl: string): Promise<string> {
  const nonce = randomBytes(24).toString('base64url');
  const start = await fetch(`${serverUrl}/api/auth/google?nonce=${nonce}`, { redirect: 'manual' });
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const approval = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
  const back = await fetch(approval.headers.get('location') ?? '', {
    redirect: 'manual',
    headers: { cookie },
  });
  const code = new URL(back.headers.get('location') ?? '', serverUrl).searchParams.get('code');
  if (!code) throw new Error(`Google sign-in ended at ${back.headers.get('location')}`);
  const exchange = await fetch(`${serverUrl}/api/auth/google/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code, nonce }),
  });
  const { token } = (await exchange.json()) as { token?: string };
  if (!token) throw new Error(`Google sign-in exchange answered ${exchange.status}`);
  return token;
}
