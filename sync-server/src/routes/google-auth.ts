// Google sign-in (OAuth 2.0 authorization code flow). The tab that starts it sends a one-time nonce; the
// browser goes to the provider and comes back to /auth/callback with ?code= (a one-time code bound to that
// nonce, never a token) or ?error=<code>; the app trades code and nonce for a token by POST. The endpoints
// are settings, so tests run a local stand-in.
import {
  AuthResponse,
  GOOGLE_NONCE_PATTERN,
  GoogleExchangeBody,
  GoogleStartQuery,
  SERVER_ERRORS,
  type GoogleSignInErrorCode,
} from '@lectern/shared-schema';
import { Type } from 'typebox';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { GoogleConfig } from '../config';
import { badRequest } from '../services/errors';
import { SignInCodes } from '../services/google-sign-in-codes';
import {
  findOrCreateGoogleUser,
  getUser,
  GoogleEmailTakenError,
  GoogleEmailUnverifiedError,
  type GoogleProfile,
} from '../services/users';
import type { RouteOptions, TypedFastify } from './types';

const STATE_COOKIE = 'lectern_oauth_state';
const CALLBACK_PATH = '/api/auth/google/callback';

const callbackTo = (query: { code: string } | { error: GoogleSignInErrorCode }) =>
  `/auth/callback?${new URLSearchParams(query).toString()}`;

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      // A malformed cookie (`%` alone) is a bad state like any other, never a server error.
      return undefined;
    }
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
  const codes = new SignInCodes();

  app.get('/auth/google', { schema: { querystring: GoogleStartQuery } }, async (request, reply) => {
    const google = config.google;
    if (!google) return reply.redirect(callbackTo({ error: 'google_not_configured' }));
    const { nonce } = request.query;
    // Without the tab's nonce the sign-in could never be finished: say so now, not after the provider.
    if (!nonce || !GOOGLE_NONCE_PATTERN.test(nonce))
      return reply.redirect(callbackTo({ error: 'google_not_started' }));
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
      `${STATE_COOKIE}=${state}.${nonce}; Path=/api/auth/google; HttpOnly; SameSite=Lax; Max-Age=600${secure}`,
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
    if (!google) return reply.redirect(callbackTo({ error: 'google_not_configured' }));
    const { code, state, error } = request.query;
    const [expectedState, nonce] = (readCookie(request.headers.cookie, STATE_COOKIE) ?? '').split('.');
    if (error || !code || !state || !expectedState || !nonce || !sameText(state, expectedState)) {
      return reply.redirect(callbackTo({ error: 'google_failed' }));
    }
    try {
      const user = findOrCreateGoogleUser(db, await fetchGoogleProfile(google, code, redirectUri));
      const signInCode = codes.issue(user.id, nonce);
      if (!signInCode) return reply.redirect(callbackTo({ error: 'google_failed' }));
      return reply.redirect(callbackTo({ code: signInCode }));
    } catch (failure) {
      if (failure instanceof GoogleEmailTakenError)
        return reply.redirect(callbackTo({ error: 'google_email_taken' }));
      if (failure instanceof GoogleEmailUnverifiedError)
        return reply.redirect(callbackTo({ error: 'google_email_unverified' }));
      request.log.warn({ err: failure }, 'Google sign-in failed');
      return reply.redirect(callbackTo({ error: 'google_failed' }));
    }
  });

  // The last step, from the tab that started the sign-in: its nonce and the code of /auth/callback?code=.
  app.post(
    '/auth/google/exchange',
    { schema: { body: GoogleExchangeBody, response: { 200: AuthResponse } } },
    async (request) => {
      const userId = codes.redeem(request.body.code, request.body.nonce);
      if (!userId) throw badRequest(SERVER_ERRORS.googleSignInExpired);
      const user = getUser(db, userId);
      return { token: app.issueToken(user.id), user };
    },
  );
}
