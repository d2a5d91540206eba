// The sign-in limits (DESIGN.md section 2): failures counted per email and per network, and attempts under
// way capped per email and per network. An attempt is counted as a failure before its password is hashed,
// so many concurrent guesses can't all pass the check while the first hashes run; a sign-in that turns
// out right takes its count back (successful sign-ins don't count against the limit).
import { SERVER_ERRORS } from '@lectern/shared-schema';
import type { Config } from '../config';
import { clientNetworkKey } from './client-address';
import { tooManyRequests } from './errors';
import { InFlightLimiter, RateLimiter } from './rate-limiter';

/** Sign-ins for one email hashing at once: a person signs in on one device at a time. */
export const LOGIN_IN_FLIGHT_PER_EMAIL = 2;
/** Sign-ins from one network (an IPv4 address or an IPv6 /64) hashing at once: a household or an office. */
export const LOGIN_IN_FLIGHT_PER_NETWORK = 8;

export interface LoginAttempt {
  /** The password was right: the attempt doesn't count as a failure. */
  succeeded(): void;
  /** The server was too busy to check the password: not a guess, so it doesn't count either. */
  notChecked(): void;
  /** The attempt is over (call once, right or wrong). */
  finish(): void;
}

export class LoginAttempts {
  private readonly failuresByEmail: RateLimiter;
  private readonly failuresByNetwork: RateLimiter;
  private readonly runningByEmail = new InFlightLimiter(LOGIN_IN_FLIGHT_PER_EMAIL);
  private readonly runningByNetwork = new InFlightLimiter(LOGIN_IN_FLIGHT_PER_NETWORK);

  constructor(config: Pick<Config, 'loginFailuresPerEmail' | 'loginFailuresPerIp' | 'loginWindowMs'>) {
    this.failuresByEmail = new RateLimiter(config.loginFailuresPerEmail, config.loginWindowMs);
    this.failuresByNetwork = new RateLimiter(config.loginFailuresPerIp, config.loginWindowMs);
  }

  /**
   * Starts a sign-in for `email` (normalised) from `address`, or throws 429 with Retry-After. Everything
   * here is synchronous: the checks and the counts happen in one step of the event loop.
   */
  start(email: string, address: string, now = Date.now()): LoginAttempt {
    const network = clientNetworkKey(address);
    if (!this.runningByEmail.enter(email)) throw tooManyRequests(SERVER_ERRORS.signInsInProgress, 1);
    if (!this.runningByNetwork.enter(network)) {
      this.runningByEmail.leave(email);
      throw tooManyRequests(SERVER_ERRORS.signInsInProgress, 1);
    }
    const leave = () => {
      this.runningByEmail.leave(email);
      this.runningByNetwork.leave(network);
    };
    const emailWait = this.failuresByEmail.take(email, now);
    const networkWait = emailWait > 0 ? 0 : this.failuresByNetwork.take(network, now);
    if (emailWait > 0 || networkWait > 0) {
      if (emailWait === 0) this.failuresByEmail.release(email, now);
      leave();
      // Both limits must allow the next attempt; the longer wait is the honest one.
      const wait = Math.max(
        emailWait,
        networkWait,
        this.failuresByEmail.retryAfterSeconds(email, now),
        this.failuresByNetwork.retryAfterSeconds(network, now),
      );
      throw tooManyRequests(SERVER_ERRORS.tooManyLogins, wait);
    }
    let finished = false;
    const giveBack = () => {
      this.failuresByEmail.release(email, now);
      this.failuresByNetwork.release(network, now);
    };
    return {
      succeeded: giveBack,
      notChecked: giveBack,
      finish: () => {
        if (finished) return;
        finished = true;
        leave();
      },
    };
  }
}
