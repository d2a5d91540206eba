// Stored hashes are data: whatever a row holds, checking a password against it answers true or false,
// quickly, and never throws (which would be a 500 at sign-in) or runs a scrypt of absurd cost.
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { verifyPassword } from './passwords';

const PASSWORD = 'correct horse battery';

function storedWith(
  N: number | string,
  r: number | string,
  p: number | string,
  saltBytes = 16,
  keyBytes = 64,
) {
  const salt = randomBytes(saltBytes);
  const key = randomBytes(keyBytes);
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** A real hash of PASSWORD at the given cost, key length and salt length. */
function realHash(N: number, r: number, p: number, keyBytes = 64, saltBytes = 16) {
  const salt = randomBytes(saltBytes);
  const key = scryptSync(PASSWORD.normalize('NFKC'), salt, keyBytes, { N, r, p, maxmem: 256 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

describe('checking a password against a stored hash', () => {
  it('verifies hashes within the bounds, at their own cost and key length', async () => {
    expect(await verifyPassword(PASSWORD, realHash(2 ** 14, 8, 1))).toBe(true);
    expect(await verifyPassword(PASSWORD, realHash(2 ** 14, 8, 1, 32))).toBe(true);
    expect(await verifyPassword('not the password', realHash(2 ** 14, 8, 1))).toBe(false);
  });

  it.each([
    ['N not a power of two', storedWith(3, 8, 1)],
    ['N = 1', storedWith(1, 8, 1)],
    ['N above 2^20', storedWith(2 ** 21, 1, 1)],
    ['N far above 2^20', storedWith(2 ** 40, 8, 1)],
    ['N written as an exponent', storedWith('1e3', 8, 1)],
    ['N with a fraction', storedWith('16384.5', 8, 1)],
    ['N with a leading zero', storedWith('016384', 8, 1)],
    ['N huge', storedWith('9'.repeat(400), 8, 1)],
    ['r above 32', storedWith(2 ** 10, 33, 1)],
    ['p above 16', storedWith(2 ** 10, 8, 17)],
    ['N = 2^20 with r = 8 (8× today’s work)', storedWith(2 ** 20, 8, 1)],
    ['N = 2^17, r = 8, p = 16 (16× today’s work)', storedWith(2 ** 17, 8, 16)],
    ['a negative r', storedWith(2 ** 10, -8, 1)],
    ['a salt of 2 bytes', storedWith(2 ** 10, 8, 1, 2)],
    ['a salt of 1,000 bytes', storedWith(2 ** 10, 8, 1, 1000)],
    ['a key of 4 bytes', storedWith(2 ** 10, 8, 1, 16, 4)],
    ['a key of 100,000 bytes', storedWith(2 ** 10, 8, 1, 16, 100_000)],
    ['a salt that is not base64', 'scrypt$1024$8$not*base64!$' + randomBytes(64).toString('base64')],
    ['an empty hash', 'scrypt$1024$8$1$' + randomBytes(16).toString('base64') + '$'],
    ['another scheme', 'bcrypt$10$whatever'],
    ['an extra field', storedWith(2 ** 10, 8, 1) + '$extra'],
    ['nothing', ''],
  ])('answers false at once, never throws, for %s', async (_case, stored) => {
    const started = performance.now();
    await expect(verifyPassword(PASSWORD, stored)).resolves.toBe(false);
    // Today's cost takes well under a second; a parameter out of bounds never reaches scrypt at all.
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('the cost of new hashes', () => {
  it('is SCRYPT_PARAMS in a process nothing lowered it in (the tests lower it in their own)', async () => {
    vi.resetModules();
    // A fresh copy of the module, as a server process loads it: no test setup has touched it.
    const fresh = await import('./passwords');
    const [scheme, n, r, p] = (await fresh.hashPassword(PASSWORD)).split('$');
    expect([scheme, Number(n), Number(r), Number(p)]).toEqual([
      'scrypt',
      fresh.SCRYPT_PARAMS.N,
      fresh.SCRYPT_PARAMS.r,
      fresh.SCRYPT_PARAMS.p,
    ]);
    expect(fresh.SCRYPT_PARAMS).toEqual({ N: 2 ** 17, r: 8, p: 1 });
  });
});
