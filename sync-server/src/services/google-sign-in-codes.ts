// One-time codes that end a Google sign-in. The provider's callback doesn't hand the browser a token in a
// URL (it would sit in history and proxy logs, and any page could link a visitor to it): it hands a short
// random code, which only the tab holding the nonce it was bound to can trade for a token, once, within a
// minute. Held in memory, like the rate limits: one server process, and a restart only asks to sign in again.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGN_IN_CODE_LIFETIME_MS = 60_000;
/** Codes waiting at once; past it, new sign-ins are refused until some are used or expire. */
export const SIGN_IN_CODES_MAX = 10_000;

interface PendingSignIn {
  userId: string;
  nonceDigest: Buffer;
  expiresAt: number;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

export class SignInCodes {
  /** Insertion order is expiry order (one lifetime for all), so expired codes sit at the front. */
  private readonly pending = new Map<string, PendingSignIn>();

  constructor(
    private readonly lifetimeMs = SIGN_IN_CODE_LIFETIME_MS,
    private readonly max = SIGN_IN_CODES_MAX,
  ) {}

  private prune(now: number): void {
    for (const [code, signIn] of this.pending) {
      if (signIn.expiresAt > now) break;
      this.pending.delete(code);
    }
  }

  /** A new code for the user, bound to the nonce; null when too many are waiting. */
  issue(userId: string, nonce: string, now = Date.now()): string | null {
    this.prune(now);
    if (this.pending.size >= this.max) return null;
    const code = randomBytes(32).toString('base64url');
    this.pending.set(digest(code).toString('base64'), {
      userId,
      nonceDigest: digest(nonce),
      expiresAt: now + this.lifetimeMs,
    });
    return code;
  }

  /**
   * The user the code was issued for, if it is known, unexpired and bound to this nonce. Any attempt uses
   * the code up, so a wrong nonce can't be retried against it.
   */
  redeem(code: string, nonce: string, now = Date.now()): string | null {
    this.prune(now);
    const key = digest(code).toString('base64');
    const signIn = this.pending.get(key);
    if (!signIn) return null;
    this.pending.delete(key);
    if (signIn.expiresAt <= now || !timingSafeEqual(signIn.nonceDigest, digest(nonce))) return null;
    return signIn.userId;
  }

  get size(): number {
    return this.pending.size;
  }
}
