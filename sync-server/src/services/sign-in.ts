// Sign-up and sign-in by password under their limits (DESIGN.md section 2): sign-ups counted per network,
// sign-ins by services/login-attempts.ts. The counts live in the database, so every caller of these
// functions, on every node, is held to the same limits.
import { SERVER_ERRORS, type LoginBody, type RegisterBody, type User } from '@lectern/shared-schema';
import type { Config } from '../config';
import type { Queryable } from '../db/database';
import { clientNetworkKey } from './client-address';
import type { ServiceContext } from './context';
import { tooManyRequests, unauthorized } from './errors';
import { LoginAttempts } from './login-attempts';
import { PasswordHashingBusyError } from './passwords';
import { RateLimiter } from './rate-limiter';
import { authenticate, normalizeEmail, registerUser } from './users';

export interface SignInLimits {
  attempts: LoginAttempts;
  registrationsByNetwork: RateLimiter;
}

export function newSignInLimits(
  db: Queryable,
  config: Pick<
    Config,
    | 'loginFailuresPerEmail'
    | 'loginFailuresPerIp'
    | 'loginWindowMs'
    | 'registrationsPerIp'
    | 'registrationWindowMs'
  >,
): SignInLimits {
  return {
    attempts: new LoginAttempts(db, config),
    registrationsByNetwork: new RateLimiter(
      'registration-network',
      config.registrationsPerIp,
      config.registrationWindowMs,
    ),
  };
}

/** A new account, if the client's network has sign-ups left in the window (429 with Retry-After if not). */
export async function signUp(ctx: ServiceContext, body: RegisterBody, address: string): Promise<User> {
  const limit = ctx.signIns.registrationsByNetwork;
  const network = clientNetworkKey(address);
  const now = Date.now();
  const wait = await limit.take(ctx.db, network, now);
  if (wait > 0) throw tooManyRequests(SERVER_ERRORS.tooManyRegistrations, wait);
  try {
    return await registerUser(ctx.db, body);
  } catch (error) {
    // Turned away for a busy server: no account was made, so the network's count is given back.
    if (error instanceof PasswordHashingBusyError) await limit.release(ctx.db, network, now);
    throw error;
  }
}

/** The user whose email and password these are (401 if none), within the sign-in limits (429 past them). */
export async function signIn(ctx: ServiceContext, body: LoginBody, address: string): Promise<User> {
  // Counted as a failure before the hash; given back below if the password is right.
  const attempt = await ctx.signIns.attempts.start(normalizeEmail(body.email), address);
  try {
    const user = await authenticate(ctx.db, body);
    if (!user) throw unauthorized(SERVER_ERRORS.invalidCredentials);
    await attempt.succeeded();
    return user;
  } catch (error) {
    if (error instanceof PasswordHashingBusyError) await attempt.notChecked();
    throw error;
  } finally {
    attempt.finish();
  }
}
