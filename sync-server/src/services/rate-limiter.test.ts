import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { countRows, openMemoryDb } from '../testing/memory-db';
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
  let db: Db;
  beforeEach(() => {
    db = openMemoryDb();
  });
  afterEach(() => db.close());

  it('takes hits up to the limit, then answers the wait without counting more', async () => {
    const limiter = new RateLimiter('test', 3, 60_000);
    for (let hit = 0; hit < 3; hit += 1) expect(await limiter.take(db, 'k', 1_000)).toBe(0);
    expect(await limiter.take(db, 'k', 1_000)).toBe(60);
    expect(await limiter.take(db, 'k', 31_000)).toBe(30);
    expect(await limiter.take(db, 'k', 61_000)).toBe(0);
  });

  it('never answers a wait longer than its window, even to a check whose clock read before the last hit', async () => {
    const limiter = new RateLimiter('test', 2, 60_000);
    expect(await limiter.take(db, 'k', 1_005)).toBe(0);
    expect(await limiter.take(db, 'k', 1_010)).toBe(0);
    // A concurrent check that read the clock a few milliseconds earlier and got the lock after them.
    expect(await limiter.take(db, 'k', 1_000)).toBe(60);
  });

  it('gives a released hit back', async () => {
    const limiter = new RateLimiter('test', 1, 60_000);
    expect(await limiter.take(db, 'k', 5)).toBe(0);
    await limiter.release(db, 'k', 5);
    expect(await limiter.take(db, 'k', 6)).toBe(0);
    expect(await limiter.take(db, 'k', 7)).toBeGreaterThan(0);
  });

  it('counts each limit and key apart', async () => {
    const registrations = new RateLimiter('registrations', 1, 60_000);
    const logins = new RateLimiter('logins', 1, 60_000);
    expect(await registrations.take(db, 'k', 0)).toBe(0);
    expect(await logins.take(db, 'k', 0)).toBe(0);
    expect(await registrations.take(db, 'other', 0)).toBe(0);
    expect(await registrations.take(db, 'k', 0)).toBe(60);
  });

  it('keeps at most the limit of hits per key, however many are refused', async () => {
    const limiter = new RateLimiter('test', 5, 60_000);
    for (let hit = 0; hit < 50; hit += 1) await limiter.take(db, 'k', hit);
    const row = await db.get<{ hits: string }>(sql`SELECT hits FROM rate_limits WHERE key = 'k'`);
    expect(JSON.parse(row?.hits ?? '')).toEqual([0, 1, 2, 3, 4]);
  });

  it('sweeps the keys whose hits have all left the window, as new hits come', async () => {
    const limiter = new RateLimiter('test', 5, 1_000);
    for (let index = 0; index < 500; index += 1) await limiter.take(db, `old-${index}`, 0);
    expect(await countRows(db, 'rate_limits')).toBe(500);
    await limiter.take(db, 'new', 2_000);
    expect(await countRows(db, 'rate_limits')).toBe(1);
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
  let db: Db;
  beforeEach(() => {
    db = openMemoryDb();
  });
  afterEach(() => db.close());

  it('counts an attempt when it starts, caps those under way, and gives a right one back', async () => {
    const attempts = new LoginAttempts(db, config);
    const first = await attempts.start('a@example.com', '2001:db8::1', 0);
    const second = await attempts.start('a@example.com', '2001:db8::2', 0);
    // Two under way for one email: a third waits, and isn't counted.
    await expect(attempts.start('a@example.com', '2001:db8::3', 0)).rejects.toThrow(
      /Too many sign-ins at once/,
    );
    await first.succeeded();
    first.finish();
    second.finish();
    // One failure counted (second); the limit of 3 leaves two more.
    (await attempts.start('a@example.com', '198.51.100.1', 0)).finish();
    (await attempts.start('a@example.com', '198.51.100.2', 0)).finish();
    await expect(attempts.start('a@example.com', '198.51.100.3', 0)).rejects.toThrow(
      /Too many sign-in attempts/,
    );
  });

  it('shares the per-network count across one IPv6 /64', async () => {
    const attempts = new LoginAttempts(db, config);
    for (let index = 1; index <= 5; index += 1)
      (await attempts.start(`user${index}@example.com`, `2001:db8:5:5::${index}`, 0)).finish();
    await expect(attempts.start('user9@example.com', '2001:db8:5:5:ffff::1', 0)).rejects.toThrow(
      /Too many sign-in attempts/,
    );
    (await attempts.start('user9@example.com', '2001:db8:5:6::1', 0)).finish();
  });
});
