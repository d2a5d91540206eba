import { describe, expect, it } from 'vitest';
import { clientNetworkKey } from './client-address';
import { LoginAttempts } from './login-attempts';
import { InFlightLimiter, RateLimiter } from './rate-limiter';

describe('clientNetworkKey', () => {
  it('keys IPv4 clients by address, also when they come as IPv4-mapped IPv6', () => {
    expect(clientNetworkKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetworkKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetworkKey('203.0.113.8')).not.toBe(clientNetworkKey('203.0.113.7'));
  });

  it('keys IPv6 clients by their /64, whatever the spelling', () => {
    const key = clientNetworkKey('2001:db8:1:2::5');
    for (const address of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:0:0:0:1',
      '2001:0db8:0001:0002::9',
    ])
      expect(clientNetworkKey(address)).toBe(key);
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientNetworkKey('2001:db8:1:3::5')).not.toBe(key);
    expect(clientNetworkKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('RateLimiter', () => {
  it('takes hits up to the limit, then answers the wait without counting more', () => {
    const limiter = new RateLimiter(3, 60_000);
    expect([0, 1, 2].map(() => limiter.take('k', 1_000))).toEqual([0, 0, 0]);
    expect(limiter.take('k', 1_000)).toBe(60);
    expect(limiter.take('k', 31_000)).toBe(30);
    expect(limiter.take('k', 61_000)).toBe(0);
  });

  it('gives a released hit back', () => {
    const limiter = new RateLimiter(1, 60_000);
    expect(limiter.take('k', 5)).toBe(0);
    limiter.release('k', 5);
    expect(limiter.take('k', 6)).toBe(0);
    expect(limiter.take('k', 7)).toBeGreaterThan(0);
  });

  it('holds at most maxKeys keys, dropping the least recently hit', () => {
    const limiter = new RateLimiter(5, 60_000, 1_000);
    limiter.take('victim', 0);
    for (let index = 0; index < 500; index += 1) limiter.take(`early-${index}`, 1);
    limiter.take('victim', 2);
    for (let index = 0; index < 10_000; index += 1) limiter.take(`flood-${index}`, 3);
    expect(limiter.size).toBe(1_000);
    for (let index = 0; index < 200_000; index += 1) limiter.hit(`more-${index}`, 4);
    expect(limiter.size).toBe(1_000);
  });

  it('prunes expired keys as new hits come', () => {
    const limiter = new RateLimiter(5, 1_000);
    for (let index = 0; index < 500; index += 1) limiter.take(`old-${index}`, 0);
    expect(limiter.size).toBe(500);
    limiter.take('new', 2_000);
    expect(limiter.size).toBe(1);
  });
});

describe('InFlightLimiter', () => {
  it('caps requests under way per key and forgets keys with none', () => {
    const limiter = new InFlightLimiter(2);
    expect([limiter.enter('a'), limiter.enter('a'), limiter.enter('a'), limiter.enter('b')]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    limiter.leave('a');
    expect(limiter.enter('a')).toBe(true);
    for (const key of ['a', 'a', 'b']) limiter.leave(key);
    expect(limiter.size).toBe(0);
  });
});

describe('LoginAttempts', () => {
  const config = { loginFailuresPerEmail: 3, loginFailuresPerIp: 5, loginWindowMs: 60_000 };

  it('counts an attempt when it starts, caps those under way, and gives a right one back', () => {
    const attempts = new LoginAttempts(config);
    const first = attempts.start('a@example.com', '2001:db8::1', 0);
    const second = attempts.start('a@example.com', '2001:db8::2', 0);
    // Two under way for one email: a third waits, and isn't counted.
    expect(() => attempts.start('a@example.com', '2001:db8::3', 0)).toThrow(/Too many sign-ins at once/);
    first.succeeded();
    first.finish();
    second.finish();
    // One failure counted (second); the limit of 3 leaves two more.
    attempts.start('a@example.com', '198.51.100.1', 0).finish();
    attempts.start('a@example.com', '198.51.100.2', 0).finish();
    expect(() => attempts.start('a@example.com', '198.51.100.3', 0)).toThrow(/Too many sign-in attempts/);
  });

  it('shares the per-network count across one IPv6 /64', () => {
    const attempts = new LoginAttempts(config);
    for (let index = 1; index <= 5; index += 1)
      attempts.start(`user${index}@example.com`, `2001:db8:5:5::${index}`, 0).finish();
    expect(() => attempts.start('user9@example.com', '2001:db8:5:5:ffff::1', 0)).toThrow(
      /Too many sign-in attempts/,
    );
    attempts.start('user9@example.com', '2001:db8:5:6::1', 0).finish();
  });
});
