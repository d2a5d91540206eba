// The claims of tokens already verified, by the token itself: a device sends the same token with every
// request, and checking its signature again each time (or hashing it for fast-jwt's own cache, which cost
// about as much) is most of a token's cost on the most read route. Only a token that verified is kept, and
// only until it expires; a forged or long token is checked every time and never fills the cache.

/** Tokens kept at most: the least recently used goes first. */
export const VERIFIED_TOKENS_MAX = 1000;
/** A token longer than this is never kept (ours are about 200 characters). */
export const VERIFIED_TOKEN_MAX_LENGTH = 512;

/**
 * `verify` (which throws on a bad token) with its answers kept per token until the token's `exp`. An
 * identical string is the identical token, so it verifies the same until then.
 */
export function cachedVerifier<Claims extends { exp?: number }>(
  verify: (token: string) => Claims,
  now: () => number = Date.now,
): (token: string) => Claims {
  const verified = new Map<string, { claims: Claims; expiresAt: number }>();
  return (token) => {
    const kept = verified.get(token);
    if (kept !== undefined) {
      verified.delete(token);
      if (kept.expiresAt > now()) {
        verified.set(token, kept);
        return kept.claims;
      }
    }
    const claims = verify(token);
    if (token.length <= VERIFIED_TOKEN_MAX_LENGTH && typeof claims.exp === 'number') {
      verified.set(token, { claims, expiresAt: claims.exp * 1000 });
      if (verified.size > VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value as string);
    }
    return claims;
  };
}
