// Google sign-in (OAuth 2.0 authorization code flow), every step but the HTTP: where the browser is sent,
// the check of what comes back, the trade of the provider's code for the Google profile, and the one-time
// code (services/google-sign-in-codes.ts) that the tab which started the sign-in trades for a token. The
// endpoints are settings, so tests run a local stand-in.
import {
  GOOGLE_NONCE_PATTERN,
  SERVER_ERRORS,
  type GoogleSignInErrorCode,
  type User,
} from '@lectern/shared-schema';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config, GoogleConfig } from '../config';
import type { ServiceContext } from './context';
import { badRequest } from './errors';
import {
  findOrCreateGoogleUser,
  getUser,
  GoogleEmailTakenError,
  GoogleEmailUnverifiedError,
  type GoogleProfile,
} from './users';

export const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';

/** What the browser keeps between the start and the callback (in a cookie): the state sent and the nonce. */
export interface PendingGoogleSignIn {
  state: string;
  nonce: string;
}

/** What the provider sends back to the callback. */
export interface GoogleCallback {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}

/** How a step ends when it can't go on: the code /auth/callback?error= shows, and what went wrong if unforeseen. */
export interface GoogleSignInRefused {
  error: GoogleSignInErrorCode;
  cause?: unknown;
}

const redirectUriOf = (config: Config) => `${config.publicUrl}${GOOGLE_CALLBACK_PATH}`;

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The provider's sign-in page for the tab holding `nonce`, and what to keep until the callback. */
export function startGoogleSignIn(
  ctx: ServiceContext,
  nonce: string | undefined,
): GoogleSignInRefused | { providerUrl: string; pending: PendingGoogleSignIn } {
  const google = ctx.config.google;
  if (!google) return { error: 'google_not_configured' };
  // Without the tab's nonce the sign-in could never be finished: say so now, not after the provider.
  if (!nonce || !GOOGLE_NONCE_PATTERN.test(nonce)) return { error: 'google_not_started' };
  const state = randomBytes(24).toString('base64url');
  const target = new URL(google.authUrl);
  target.search = new URLSearchParams({
    client_id: google.clientId,
    redirect_uri: redirectUriOf(ctx.config),
    response_type: 'code',
    scope: 'openid email profile',
    state,
    prompt: 'select_account',
  }).toString();
  return { providerUrl: target.toString(), pending: { state, nonce } };
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

/**
 * The provider's callback: its state must be the one this browser was sent with, then its code is traded
 * for the Google profile, the account is found or made, and a one-time code bound to the tab's nonce
 * answers (never a token: it would sit in the address).
 */
export async function finishGoogleSignIn(
  ctx: ServiceContext,
  callback: GoogleCallback,
  pending: Partial<PendingGoogleSignIn>,
): Promise<GoogleSignInRefused | { code: string }> {
  const google = ctx.config.google;
  if (!google) return { error: 'google_not_configured' };
  const { code, state, error } = callback;
  if (error || !code || !state || !pending.state || !pending.nonce || !sameText(state, pending.state)) {
    return { error: 'google_failed' };
  }
  try {
    const user = await findOrCreateGoogleUser(
      ctx.db,
      await fetchGoogleProfile(google, code, redirectUriOf(ctx.config)),
    );
    const signInCode = await ctx.googleCodes.issue(user.id, pending.nonce);
    return signInCode ? { code: signInCode } : { error: 'google_failed' };
  } catch (failure) {
    if (failure instanceof GoogleEmailTakenError) return { error: 'google_email_taken' };
    if (failure instanceof GoogleEmailUnverifiedError) return { error: 'google_email_unverified' };
    return { error: 'google_failed', cause: failure };
  }
}

/** The last step: the user a one-time code was issued for, traded once by the tab holding its nonce. */
export async function redeemGoogleSignIn(
  ctx: ServiceContext,
  code: string,
  nonce: string,
  now = Date.now(),
): Promise<User> {
  const userId = await ctx.googleCodes.redeem(code, nonce, now);
  if (!userId) throw badRequest(SERVER_ERRORS.googleSignInExpired);
  return await getUser(ctx.db, userId);
}
