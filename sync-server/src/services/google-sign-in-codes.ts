// One-time codes that end a Google sign-in. The provider's callback doesn't hand the browser a token in a
// URL (it would sit in history and proxy logs, and any page could link a visitor to it): it hands a short
// random code, which only the tab holding the nonce it was bound to can trade for a token, once, within a
// minute. Held in the database (sign_in_codes), since the callback and the trade may reach different
// nodes; only digests are stored, so reading the table redeems nothing.
import { count, eq, lte } from 'drizzle-orm';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database';

export const SIGN_IN_CODE_LIFETIME_MS = 60_000;
/** Codes waiting at once; past it, new sign-ins are refused until some are used or expire. */
export const SIGN_IN_CODES_MAX = 10_000;

const digest = (text: string) => createHash('sha256').update(text).digest('base64');

export class SignInCodes {
  constructor(
    private readonly db: Queryable,
    private readonly lifetimeMs = SIGN_IN_CODE_LIFETIME_MS,
    private readonly max = SIGN_IN_CODES_MAX,
  ) {}

  /** A new code for the user, bound to the nonce; null when too many are waiting. */
  async issue(userId: string, nonce: string, now = Date.now()): Promise<string | null> {
    const code = randomBytes(32).toString('base64url');
    const { signInCodes } = this.db.tables;
    const issued = await this.db.transaction(async (tx) => {
      // Expired codes go as new ones come: the table holds at most a minute of sign-ins.
      await tx.orm.delete(signInCodes).where(lte(signInCodes.expiresAt, now));
      const [waiting] = await tx.orm.select({ n: count() }).from(signInCodes);
      if ((waiting?.n ?? 0) >= this.max) return false;
      await tx.orm.insert(signInCodes).values({
        codeDigest: digest(code),
        userId,
        nonceDigest: digest(nonce),
        expiresAt: now + this.lifetimeMs,
      });
      return true;
    });
    return issued ? code : null;
  }

  /**
   * The user the code was issued for, if it is known, unexpired and bound to this nonce. Any attempt uses
   * the code up, so a wrong nonce can't be retried against it. The row is taken by one DELETE, so of two
   * trades of one code (on two nodes, at once) only one finds it.
   */
  async redeem(code: string, nonce: string, now = Date.now()): Promise<string | null> {
    const { signInCodes } = this.db.tables;
    const [signIn] = await this.db.transaction(
      async (tx) =>
        await tx.orm
          .delete(signInCodes)
          .where(eq(signInCodes.codeDigest, digest(code)))
          .returning({
            userId: signInCodes.userId,
            nonceDigest: signInCodes.nonceDigest,
            expiresAt: signInCodes.expiresAt,
          }),
    );
    if (!signIn || signIn.expiresAt <= now) return null;
    const expected = Buffer.from(signIn.nonceDigest, 'base64');
    const given = Buffer.from(digest(nonce), 'base64');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return signIn.userId;
  }

  /** How many codes the table holds, expired ones not yet swept included (for tests of the bound). */
  async size(): Promise<number> {
    const [held] = await this.db.orm.select({ n: count() }).from(this.db.tables.signInCodes);
    return held?.n ?? 0;
  }
}
