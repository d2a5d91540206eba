// The sign-up and sign-in limits hold across calls of the service itself (not only over HTTP), on the
// server's own context over a fresh database of the run's engine, migrated.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { contextPerTest } from '../testing/service-context';
import { signIn, signUp } from './sign-in';
import { sql } from 'drizzle-orm';

const PASSWORD = 'correct horse battery';
const HOME = '203.0.113.7';

const t = contextPerTest([], {
  LOGIN_FAILURES_PER_EMAIL: '3',
  LOGIN_FAILURES_PER_IP: '4',
  REGISTRATIONS_PER_IP: '2',
});

const account = (name: string) => ({ email: `${name}@example.com`, password: PASSWORD, username: name });
const wrong = (name: string) => ({ email: `${name}@example.com`, password: 'wrong password' });

describe('signIn', () => {
  it('refuses an email after its failures, even with the right password, and tells how long to wait', async () => {
    await signUp(t.ctx, account('ann'), HOME);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expect(signIn(t.ctx, wrong('ann'), `198.51.100.${attempt}`)).rejects.toMatchObject({
        statusCode: 401,
        message: SERVER_ERRORS.invalidCredentials,
      });
    }
    const refused = signIn(t.ctx, account('ann'), HOME);
    await expect(refused).rejects.toMatchObject({ statusCode: 429, message: SERVER_ERRORS.tooManyLogins });
    const wait = Number(
      ((await refused.catch((error: unknown) => error)) as { headers: Record<string, string> }).headers[
        'retry-after'
      ],
    );
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
  });

  it('counts failures per network across emails, and right passwords not at all', async () => {
    await signUp(t.ctx, account('ann'), HOME);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await expect(signIn(t.ctx, account('ann'), HOME)).resolves.toMatchObject({ email: 'ann@example.com' });
    }
    for (const name of ['b1', 'b2', 'b3', 'b4']) {
      await expect(signIn(t.ctx, wrong(name), HOME)).rejects.toMatchObject({ statusCode: 401 });
    }
    // The network has used its 4 failures: anyone signing in from it waits, ann from elsewhere doesn't.
    await expect(signIn(t.ctx, account('ann'), HOME)).rejects.toMatchObject({
      statusCode: 429,
      message: SERVER_ERRORS.tooManyLogins,
    });
    await expect(signIn(t.ctx, account('ann'), '192.0.2.1')).resolves.toMatchObject({
      email: 'ann@example.com',
    });
  });
});

describe('signUp', () => {
  it('allows a network its sign-ups in the window, then answers 429; an IPv6 /64 is one network', async () => {
    await signUp(t.ctx, account('a1'), '2001:db8:1:2::10');
    await signUp(t.ctx, account('a2'), '2001:db8:1:2:ffff::99');
    await expect(signUp(t.ctx, account('a3'), '2001:db8:1:2::abc')).rejects.toMatchObject({
      statusCode: 429,
      message: SERVER_ERRORS.tooManyRegistrations,
    });
    await expect(signUp(t.ctx, account('a3'), HOME)).resolves.toMatchObject({ email: 'a3@example.com' });
    expect(await t.ctx.db.get(sql`SELECT count(*) AS n FROM users`)).toEqual({ n: 3 });
  });
});
