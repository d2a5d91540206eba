// A local stand-in for Google's OAuth endpoints, and the server settings that point at it: for the Google
// sign-in tests, over HTTP (test/google-auth) and on the service itself (services/google-sign-in).
import { createServer, type Server } from 'node:http';
import { listenLocally } from './listen-locally';

export interface StandInGoogle {
  origin: string;
  /** The paths asked for, in order (a test may empty it). */
  calls: string[];
  close(): Promise<void>;
}

/** A stand-in for Google's OAuth endpoints: a few known codes (one per Google account), one known client. */
export async function startStandInGoogle(): Promise<StandInGoogle> {
  const issued = new Map([
    ['good-code', { sub: 'google-123', email: 'grace@example.com', name: 'Grace' }],
    // The victim's real Google account, signing in after an attacker registered the address.
    ['victim-code', { sub: 'google-victim', email: 'victim@gmail.com', name: 'Victim' }],
    // Another Google account claiming Grace's address (a recycled or re-issued address).
    ['other-sub-code', { sub: 'google-999', email: 'grace@example.com', name: 'Not Grace' }],
    // An account whose address Google has not verified (anyone may have typed it).
    [
      'unverified-code',
      { sub: 'google-unverified', email: 'unverified@example.com', name: 'Typed', email_verified: false },
    ],
  ]);
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://provider');
    calls.push(url.pathname);
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
        .end(JSON.stringify({ email_verified: true, ...profile, picture: 'https://example.com/grace.png' }));
      return;
    }
    response.writeHead(404).end();
  });
  const origin = await listenLocally(server);
  return { origin, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The server's Google settings for the stand-in: client-1 with secret-1, the callback on lectern.test. */
export function googleEnv(google: Pick<StandInGoogle, 'origin'>): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: 'client-1',
    GOOGLE_CLIENT_SECRET: 'secret-1',
    GOOGLE_AUTH_URL: `${google.origin}/authorize`,
    GOOGLE_TOKEN_URL: `${google.origin}/token`,
    GOOGLE_USERINFO_URL: `${google.origin}/userinfo`,
    PUBLIC_URL: 'http://lectern.test',
  };
}
