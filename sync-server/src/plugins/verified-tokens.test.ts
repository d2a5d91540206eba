import { describe, expect, it } from 'vitest';
import { cachedVerifier, VERIFIED_TOKEN_MAX_LENGTH, VERIFIED_TOKENS_MAX } from './verified-tokens';

/** A verifier that counts its calls: tokens starting "bad" are refused; others expire at `exp`. */
function counting(exp = 2_000) {
  const calls: string[] = [];
  const verify = (token: string) => {
    calls.push(token);
    if (token.startsWith('bad')) throw new Error('invalid signature');
    return { sub: token, exp };
  };
  return { calls, verify };
}

describe('cachedVerifier', () => {
  it('verifies a token once while it is unexpired, and again once it has expired', () => {
    let now = 1_000_000;
    const { calls, verify } = counting(2_000);
    const verified = cachedVerifier(verify, () => now);
    expect(verified('a')).toEqual({ sub: 'a', exp: 2_000 });
    expect(verified('a')).toEqual({ sub: 'a', exp: 2_000 });
    expect(calls).toEqual(['a']);
    now = 2_000_000;
    verified('a');
    expect(calls).toEqual(['a', 'a']);
  });

  it('never keeps a refused token: each one is checked again', () => {
    const { calls, verify } = counting();
    const verified = cachedVerifier(verify, () => 0);
    for (let attempt = 0; attempt < 3; attempt += 1)
      expect(() => verified('bad token')).toThrow('invalid signature');
    expect(calls).toHaveLength(3);
  });

  it('never keeps a long token nor one without an expiry', () => {
    const calls: string[] = [];
    const verified = cachedVerifier(
      (token: string) => {
        calls.push(token);
        return token.startsWith('e') ? { exp: 10 } : {};
      },
      () => 0,
    );
    const long = `e${'x'.repeat(VERIFIED_TOKEN_MAX_LENGTH)}`;
    verified(long);
    verified(long);
    verified('forever');
    verified('forever');
    expect(calls).toEqual([long, long, 'forever', 'forever']);
  });

  it(`keeps at most ${VERIFIED_TOKENS_MAX} tokens, the least recently used leaving first`, () => {
    const { calls, verify } = counting();
    const verified = cachedVerifier(verify, () => 0);
    for (let i = 0; i < VERIFIED_TOKENS_MAX; i += 1) verified(`t${i}`);
    // Used again: now the most recent.
    verified('t0');
    verified('one more');
    calls.length = 0;
    verified('t0');
    verified('t2');
    expect(calls).toEqual([]);
    verified('t1');
    expect(calls).toEqual(['t1']);
  });
});
