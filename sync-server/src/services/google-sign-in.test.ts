// Google sign-in without HTTP on our side: the start, the callback's checks, the trade of the provider's
// code for the profile (against a local stand-in for Google), and the one-time code the tab redeems.
// On the server's own context over a fresh database of the run's engine, migrated.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestContext, type TestContext } from '../testing/service-context';
import { googleEnv, startStandInGoogle, type StandInGoogle } from '../testing/stand-in-google';
import { SIGN_IN_CODE_LIFETIME_MS } from './google-sign-in-codes';
import { finishGoogleSignIn, redeemGoogleSignIn, startGoogleSignIn } from './google-sign-in';
import { sql } from 'drizzle-orm';

const NONCE = 'tab-nonce-'.padEnd(32, 'n');

let provider: StandInGoogle;
beforeAll(async () => {
  provider = await startStandInGoogle();
});
afterAll(() => provider.close());

let t: TestContext;

beforeEach(async () => {
  provider.calls.length = 0;
  t = await openTestContext(googleEnv(provider));
});
afterEach(() => t.close());

/** Start and callback as the browser goes through them; answers the callback's outcome. */
async function signInWithGoogle(code = 'good-code') {
  const started = startGoogleSignIn(t.ctx, NONCE);
  if ('error' in started) throw new Error(started.error);
  return finishGoogleSignIn(t.ctx, { code, state: started.pending.state }, started.pending);
}

describe('startGoogleSignIn', () => {
  it("sends the browser to the provider with the client, the callback and a fresh state, keeping the tab's nonce", () => {
    const started = startGoogleSignIn(t.ctx, NONCE);
    if ('error' in started) throw new Error(started.error);
    const target = new URL(started.providerUrl);
    expect(`${target.origin}${target.pathname}`).toBe(`${provider.origin}/authorize`);
    expect(Object.fromEntries(target.searchParams)).toEqual({
      client_id: 'client-1',
      redirect_uri: 'http://lectern.test/api/auth/google/callback',
      response_type: 'code',
      scope: 'openid email profile',
      state: started.pending.state,
      prompt: 'select_account',
    });
    expect(started.pending.nonce).toBe(NONCE);
    const again = startGoogleSignIn(t.ctx, NONCE);
    expect('pending' in again && again.pending.state).not.toBe(started.pending.state);
  });

  it('refuses to start without a nonce, or without Google configured', async () => {
    expect(startGoogleSignIn(t.ctx, undefined)).toEqual({ error: 'google_not_started' });
    expect(startGoogleSignIn(t.ctx, 'short')).toEqual({ error: 'google_not_started' });
    const unconfigured = await openTestContext();
    try {
      expect(startGoogleSignIn(unconfigured.ctx, NONCE)).toEqual({ error: 'google_not_configured' });
      expect(await finishGoogleSignIn(unconfigured.ctx, { code: 'good-code', state: 's' }, {})).toEqual({
        error: 'google_not_configured',
      });
    } finally {
      await unconfigured.close();
    }
  });
});

describe('finishGoogleSignIn', () => {
  it('asks the provider nothing when the state is not the one this browser was sent with', async () => {
    const started = startGoogleSignIn(t.ctx, NONCE);
    if ('error' in started) throw new Error(started.error);
    const { pending } = started;
    for (const [callback, kept] of [
      [{ code: 'good-code', state: 'forged' }, pending],
      [{ code: 'good-code', state: pending.state }, {}],
      [{ code: 'good-code', state: pending.state }, { state: pending.state }],
      [{ state: pending.state }, pending],
      [{ code: 'good-code', state: pending.state, error: 'access_denied' }, pending],
    ] as const) {
      expect(await finishGoogleSignIn(t.ctx, callback, kept)).toEqual({ error: 'google_failed' });
    }
    expect(provider.calls).toEqual([]);
    expect(await t.ctx.googleCodes.size()).toBe(0);
  });

  it('says what went wrong when the provider refuses the code, and makes no account', async () => {
    const outcome = await signInWithGoogle('stolen-code');
    expect(outcome).toMatchObject({ error: 'google_failed', cause: expect.any(Error) });
    expect(provider.calls).toEqual(['/token']);
    expect(await t.ctx.db.get(sql`SELECT count(*) AS n FROM users`)).toEqual({ n: 0 });
  });
});

describe('the one-time code', () => {
  it('is traded by the tab holding its nonce for the Google account, once', async () => {
    const outcome = await signInWithGoogle();
    if (!('code' in outcome)) throw new Error(outcome.error);
    expect(provider.calls).toEqual(['/token', '/userinfo']);
    expect(await redeemGoogleSignIn(t.ctx, outcome.code, NONCE)).toMatchObject({
      email: 'grace@example.com',
      username: 'Grace',
    });
    await expect(redeemGoogleSignIn(t.ctx, outcome.code, NONCE)).rejects.toThrow(
      expect.objectContaining({ statusCode: 400, message: SERVER_ERRORS.googleSignInExpired }),
    );
  });

  it('is used up by a wrong nonce, so the right one cannot follow', async () => {
    const outcome = await signInWithGoogle();
    if (!('code' in outcome)) throw new Error(outcome.error);
    await expect(redeemGoogleSignIn(t.ctx, outcome.code, 'other-tab-'.padEnd(32, 'x'))).rejects.toThrow(
      expect.objectContaining({ statusCode: 400, message: SERVER_ERRORS.googleSignInExpired }),
    );
    await expect(redeemGoogleSignIn(t.ctx, outcome.code, NONCE)).rejects.toThrow(
      expect.objectContaining({ statusCode: 400 }),
    );
  });

  it('expires after its lifetime', async () => {
    const first = await signInWithGoogle();
    const second = await signInWithGoogle();
    if (!('code' in first) || !('code' in second)) throw new Error('no code');
    const issuedBy = Date.now();
    expect(
      await redeemGoogleSignIn(t.ctx, first.code, NONCE, issuedBy + SIGN_IN_CODE_LIFETIME_MS - 5_000),
    ).toMatchObject({ email: 'grace@example.com' });
    await expect(
      redeemGoogleSignIn(t.ctx, second.code, NONCE, issuedBy + SIGN_IN_CODE_LIFETIME_MS),
    ).rejects.toThrow(
      expect.objectContaining({ statusCode: 400, message: SERVER_ERRORS.googleSignInExpired }),
    );
  });
});
