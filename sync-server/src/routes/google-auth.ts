// Google sign-in (OAuth 2.0 authorization code flow). The browser goes to the provider and comes back to
// /auth/callback with ?token= or ?error=. The endpoints are settings, so tests run a local stand-in.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { Type } from 'typebox';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { GoogleConfig } from '../config';
import { findOrCreateGoogleUser, type GoogleProfile } from '../services/users';
import type { RouteOptions, TypedFastify } from './types';

const STATE_COOKIE = 'lectern_oauth_state';
const CALLBACK_PATH = '/api/auth/google/callback';

const callbackTo = (query: Record<string, string>) =>
  `/auth/callback?${new URLSearchParams(query).toString()}`;

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function fetchGoogleProfile(
  google: GoogleConfig,
  code: string,
  redirectUri: string,
): Promise<GoogleProfile> {
  const tokenResponse = await fetch(google.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      code,
      client_id: google.clientId,
      client_secret: google.clientSecret,
      redirect_uri: redirectUri,
      grant_type: 'authorization_code',
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!tokenResponse.ok) throw new Error(`token endpoint answered ${tokenResponse.status}`);
  const { access_token: accessToken } = (await tokenResponse.json()) as { access_token?: string };
  if (!accessToken) throw new Error('token endpoint sent no access_token');
  const profileResponse = await fetch(google.userInfoUrl, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  if (!profileResponse.ok) throw new Error(`userinfo endpoint answered ${profileResponse.status}`);
  const profile = (await profileResponse.json()) as Record<string, unknown>;
  if (typeof profile.sub !== 'string' || typeof profile.email !== 'string')
    throw new Error('profile lacks sub or email');
  return {
    sub: profile.sub,
    email: profile.email,
    emailVerified: profile.email_verified === true || profile.email_verified === 'true',
    name: typeof profile.name === 'string' ? profile.name : null,
    picture: typeof profile.picture === 'string' ? profile.picture : null,
  };
}

export async function googleAuthRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  const { config, db } = ctx;
  const redirectUri = `${config.publicUrl}${CALLBACK_PATH}`;
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';

  app.get('/auth/google', async (_request, reply) => {
    const google = config.google;
    if (!google) return reply.redirect(callbackTo({ error: SERVER_ERRORS.googleNotConfigured }));
    const state = randomBytes(24).toString('base64url');
    const target = new URL(google.authUrl);
    target.search = new URLSearchParams({
      client_id: google.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state,
      prompt: 'select_account',
    }).toString();
    reply.header(
      'set-cookie',
      `${STATE_COOKIE}=${state}; Path=/api/auth/google; HttpOnly; SameSite=Lax; Max-Age=600${secure}`,
    );
    return reply.redirect(target.toString());
  });

  const CallbackQuery = Type.Object({
    code: Type.Optional(Type.String({ maxLength: 2048 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 512 })),
  });

  app.get('/auth/google/callback', { schema: { querystring: CallbackQuery } }, async (request, reply) => {
    reply.header(
      'set-cookie',
      `${STATE_COOKIE}=; Path=/api/auth/google; HttpOnly; SameSite=Lax; Max-Age=0${secure}`,
    );
    const google = config.google;
    if (!google) return reply.redirect(callbackTo({ error: SERVER_ERRORS.googleNotConfigured }));
    const { code, state, error } = request.query;
    const expectedState = readCookie(request.headers.cookie, STATE_COOKIE);
    if (error || !code || !state || !expectedState || !sameText(state, expectedState)) {
      return reply.redirect(callbackTo({ error: SERVER_ERRORS.googleFailed }));
    }
    try {
      const user = findOrCreateGoogleUser(db, await fetchGoogleProfile(google, code, redirectUri));
      return reply.redirect(callbackTo({ token: app.issueToken(user.id) }));
    } catch (failure) {
      request.log.warn({ err: failure }, 'Google sign-in failed');
      return reply.redirect(callbackTo({ error: SERVER_ERRORS.googleFailed }));
    }
  });
}
