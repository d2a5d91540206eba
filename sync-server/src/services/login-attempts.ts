// The sign-in limits (DESIGN.md section 2): failures counted per email and per network (in the database,
// shared by every node), and attempts under way capped per email and per network (per node). An attempt is counted as a failure before its password is hashed,
// so many concurrent guesses can't all pass the check while the first hashes run; a sign-in that turns
// out right takes its count back (successful sign-ins don't count against the limit).
import { SERVER_ERRORS } from '@lectern/shared-schema';
import type { Config } from '../config';
import type { Queryable } from '../db/database';
import { clientNetworkKey } from './client-address';
import { tooManyRequests } from './errors';
import { InFlightLimiter, RateLimiter, releaseTogether, takeTogether, type LimitedKey } from './rate-limiter';

/** Sign-ins for one email hashing at once: a person signs in on one device at a time. */
export const LOGIN_IN_FLIGHT_PER_EMAIL = 2;
/** Sign-ins from one network (an IPv4 address or an IPv6 /64) hashing at once: a household or an office. */
export const LOGIN_IN_FLIGHT_PER_NETWORK = 8;

export interface LoginAttempt {
  /** The password was right: the attempt doesn't count as a failure. */
  succeeded(): Promise<void>;
  /** The server was too busy to check the password: not a guess, so it doesn't count either. */
  notChecked(): Promise<void>;
  /** The attempt is over (call once, right or wrong). */
  finish(): void;
}

export class LoginAttempts {
  private readonly failuresByEmail: RateLimiter;
  private readonly failuresByNetwork: RateLimiter;
  // Per node: they guard this node's hashing (services/rate-limiter.ts, InFlightLimiter).
  private readonly runningByEmail = new InFlightLimiter(LOGIN_IN_FLIGHT_PER_EMAIL);
  private readonly runningByNetwork = new InFlightLimiter(LOGIN_IN_FLIGHT_PER_NETWORK);

  constructor(
    private readonly db: Queryable,
    config: Pick<Config, 'loginFailuresPerEmail' | 'loginFailuresPerIp' | 'loginWindowMs'>,
  ) {
    this.failuresByEmail = new RateLimiter('login-email', config.loginFailuresPerEmail, config.loginWindowMs);
    this.failuresByNetwork = new RateLimiter(
      'login-network',
      config.loginFailuresPerIp,
      config.loginWindowMs,
    );
  }

  /**
   * Starts a sign-in for `email` (normalised) from `address`, or throws 429 with Retry-After. The failure
   * counts are checked and counted in one database transaction (both or neither), shared by every node.
   */
  async start(email: string, address: string, now = Date.now()): Promise<LoginAttempt> {
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
    const counted: LimitedKey[] = [
      { limit: this.failuresByEmail, key: email },
      { limit: this.failuresByNetwork, key: network },
    ];
    let wait: number;
    try {
      wait = await takeTogether(this.db, counted, now);
    } catch (error) {
      leave();
      throw error;
    }
    if (wait > 0) {
      leave();
      // Both limits must allow the next attempt; the longer wait is the honest one.
      throw tooManyRequests(SERVER_ERRORS.tooManyLogins, wait);
    }
    let finished = false;
    const giveBack = async () => await releaseTogether(this.db, counted, now);
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
