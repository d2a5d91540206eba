import { describe, expect, it } from 'vitest';
import { SignInCodes } from './google-sign-in-codes';

const NONCE = 'n'.repeat(32);

describe('SignInCodes', () => {
  it('trades a code for its user once, with its own nonce only', () => {
    const codes = new SignInCodes();
    const code = codes.issue('user-1', NONCE, 0) ?? '';
    expect(codes.redeem(code, NONCE, 1)).toBe('user-1');
    expect(codes.redeem(code, NONCE, 2)).toBeNull();
    const other = codes.issue('user-1', NONCE, 0) ?? '';
    expect(codes.redeem(other, 'm'.repeat(32), 1)).toBeNull();
    expect(codes.redeem(other, NONCE, 1)).toBeNull();
  });

  it('expires a code after about a minute', () => {
    const codes = new SignInCodes();
    const fresh = codes.issue('user-1', NONCE, 0) ?? '';
    const late = codes.issue('user-1', NONCE, 0) ?? '';
    expect(codes.redeem(fresh, NONCE, 59_000)).toBe('user-1');
    expect(codes.redeem(late, NONCE, 60_000)).toBeNull();
  });

  it('holds a bounded number of codes, and expired ones go', () => {
    const codes = new SignInCodes(60_000, 100);
    for (let index = 0; index < 100; index += 1) expect(codes.issue('u', NONCE, 0)).not.toBeNull();
    expect(codes.issue('u', NONCE, 1)).toBeNull();
    expect(codes.size).toBe(100);
    expect(codes.issue('u', NONCE, 60_001)).not.toBeNull();
    expect(codes.size).toBe(1);
  });
});
