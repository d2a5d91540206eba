// Google sign-in over HTTP (the steps are services/google-sign-in.ts). The tab that starts it sends a
// one-time nonce; the browser goes to the provider and comes back to /auth/callback with ?code= (a one-time
// code bound to that nonce, never a token) or ?error=<code>; the app trades code and nonce for a token by
// POST. The state and nonce wait in a cookie scoped to these routes.
import {
  AuthResponse,
  GoogleExchangeBody,
  GoogleStartQuery,
  type GoogleSignInErrorCode,
} from '@lectern/shared-schema';
import { Type } from 'typebox';
import {
  finishGoogleSignIn,
  redeemGoogleSignIn,
  startGoogleSignIn,
  type PendingGoogleSignIn,
} from '../services/google-sign-in';
import type { RouteOptions, TypedFastify } from './types';

const STATE_COOKIE = 'lectern_oauth_state';

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

function pendingFrom(cookieHeader: string | undefined): Partial<PendingGoogleSignIn> {
  const [state, nonce] = (readCookie(cookieHeader, STATE_COOKIE) ?? '').split('.');
  return { state, nonce };
}

export async function googleAuthRoutes(app: TypedFastify, { ctx }: RouteOptions) {
  const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';

  app.get('/auth/google', { schema: { querystring: GoogleStartQuery } }, async (request, reply) => {
    const started = startGoogleSignIn(ctx, request.query.nonce);
    if ('error' in started) return reply.redirect(callbackTo({ error: started.error }));
    const { state, nonce } = started.pending;
    reply.header(
      'set-cookie',
      `${STATE_COOKIE}=${state}.${nonce}; Path=/api/auth/google; HttpOnly; SameSite=Lax; Max-Age=600${secure}`,
    );
    return reply.redirect(started.providerUrl);
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
    const finished = await finishGoogleSignIn(ctx, request.query, pendingFrom(request.headers.cookie));
    if ('code' in finished) return reply.redirect(callbackTo({ code: finished.code }));
    if ('cause' in finished) request.log.warn({ err: finished.cause }, 'Google sign-in failed');
    return reply.redirect(callbackTo({ error: finished.error }));
  });

  // The last step, from the tab that started the sign-in: its nonce and the code of /auth/callback?code=.
  app.post(
    '/auth/google/exchange',
    { schema: { body: GoogleExchangeBody, response: { 200: AuthResponse } } },
    async (request) => {
      const user = await redeemGoogleSignIn(ctx, request.body.code, request.body.nonce);
      return { token: await app.issueToken(user.id), user };
    },
  );
}
