// What nodes share, on each engine: two nodes are two connections to one database (two SQLite connections
// on one file, two PostgreSQL pools on one database), each with its own limiters and codes, as two server
// processes would have. A limit counted through both never lets more through than its count, however the
// requests are spread and however many arrive at once; a session revoked through one is refused by the
// other at once; a Google sign-in code issued by one is redeemed by the other, once.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../db/connection';
import type { Db } from '../db/database';
import { openPostgres } from '../db/postgres/connection';
import { addReader, countRows } from '../testing/memory-db';
import { createTestDatabase, stopTestCluster } from '../testing/postgres-cluster';
import { SignInCodes } from './google-sign-in-codes';
import { LoginAttempts } from './login-attempts';
import { RateLimiter, takeTogether } from './rate-limiter';
import { createSession, isSessionActive, revokeSession, revokeUserSessions } from './sessions';
import { deleteUser } from './users';

afterAll(stopTestCluster);

interface Engine {
  name: string;
  /** Two nodes on one new database, and what removes it. */
  open(): Promise<{ nodes: [Db, Db]; remove(): void }>;
}

/**
 * Two SQLite nodes are two processes: one waiting for the file's write lock (busy_timeout) blocks its own
 * thread only, while the other finishes its transaction. In one test process the waiting node would block
 * the thread the other needs to finish, so each node's transaction starts in a turn of the event loop of
 * its own, as it would in its own process. The exclusion itself is still SQLite's (BEGIN IMMEDIATE).
 */
function inTurn(db: Db): Db {
  return {
    ...db,
    transaction: async (work) => {
      await new Promise((resolve) => setImmediate(resolve));
      return await db.transaction(work);
    },
  };
}

const engines: Engine[] = [
  {
    name: 'SQLite',
    open: async () => {
      const folder = mkdtempSync(join(tmpdir(), 'lectern-two-nodes-'));
      const file = join(folder, 'lectern.sqlite');
      return {
        nodes: [inTurn(openSqlite(file)), inTurn(openSqlite(file))],
        remove: () => rmSync(folder, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const url = await createTestDatabase();
      return { nodes: [await openPostgres(url), await openPostgres(url)], remove: () => {} };
    },
  },
];

const LOGIN_LIMITS = { loginFailuresPerEmail: 10, loginFailuresPerIp: 20, loginWindowMs: 15 * 60_000 };

describe.each(engines)('two nodes on one $name database', (engine) => {
  let a: Db;
  let b: Db;
  let remove: () => void;
  beforeEach(async () => {
    const opened = await engine.open();
    [a, b] = opened.nodes;
    remove = opened.remove;
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    remove();
  });

  it('lets exactly the limit of 200 concurrent hits on one key through, spread over both nodes', async () => {
    // Each node has its own limiter object, as each server process would: only the database is shared.
    const onA = new RateLimiter('registration-network', 7, 60_000);
    const onB = new RateLimiter('registration-network', 7, 60_000);
    const waits = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        index % 2 === 0 ? onA.take(a, '203.0.113.9') : onB.take(b, '203.0.113.9'),
      ),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(7);
    // Until the oldest counted hit leaves the minute: 60 s, less the time 200 checks took on a busy machine.
    const refused = waits.filter((wait) => wait > 0);
    expect(refused).toHaveLength(193);
    expect(Math.max(...refused)).toBeLessThanOrEqual(60);
    expect(Math.min(...refused)).toBeGreaterThanOrEqual(45);
    // The same key on the next hit, from either node: still refused.
    expect(await onA.take(a, '203.0.113.9')).toBeGreaterThan(0);
    expect(await onB.take(b, '203.0.113.9')).toBeGreaterThan(0);
  });

  it('counts two keys together (both or neither) under concurrent checks locking them, without deadlock', async () => {
    const email = () => ({ limit: new RateLimiter('login-email', 5, 60_000), key: 'a@example.com' });
    const network = (key: string) => ({ limit: new RateLimiter('login-network', 8, 60_000), key });
    // Half lock (email, network 1), half (email, network 2), from both nodes: the per-email limit of 5
    // lets 5 through in all, and the networks' counts add up to exactly those 5.
    const waits = await Promise.all(
      Array.from({ length: 120 }, (_, index) => {
        const node = index % 2 === 0 ? a : b;
        return takeTogether(node, [network(index % 3 === 0 ? 'n1' : 'n2'), email()]);
      }),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(5);
    const rows = await a.orm.select().from(a.tables.rateLimits);
    const counted = (name: string) =>
      rows.filter((row) => row.name === name).reduce((sum, row) => sum + JSON.parse(row.hits).length, 0);
    expect(counted('login-email')).toBe(5);
    expect(counted('login-network')).toBe(5);
  });

  it('sweeps expired keys while other checks run on both nodes, and every check still answers', async () => {
    // A window of 30 ms: every check sweeps, and sweeps meet rows other checks hold.
    const waits = await Promise.all(
      Array.from({ length: 150 }, (_, index) => {
        const node = index % 2 === 0 ? a : b;
        const limit = (name: string) => new RateLimiter(name, 2, 30);
        return takeTogether(node, [
          { limit: limit('login-email'), key: `e${index % 10}` },
          { limit: limit('login-network'), key: `n${index % 7}` },
        ]);
      }),
    );
    expect(waits.every((wait) => wait >= 0)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await new RateLimiter('login-email', 2, 30).sweepNowAndThen(b);
    await new RateLimiter('login-network', 2, 30).sweepNowAndThen(a);
    expect(await countRows(a, 'rate_limits')).toBe(0);
  });

  it('login failures spread over both nodes meet the per-email limit, and a right password is not counted', async () => {
    const onA = new LoginAttempts(a, LOGIN_LIMITS);
    const onB = new LoginAttempts(b, LOGIN_LIMITS);
    const right = await onA.start('grace@example.com', '198.51.100.1');
    await right.succeeded();
    right.finish();
    for (let failure = 0; failure < LOGIN_LIMITS.loginFailuresPerEmail; failure += 1) {
      const node = failure % 2 === 0 ? onA : onB;
      (await node.start('grace@example.com', `198.51.100.${failure + 2}`)).finish();
    }
    for (const node of [onA, onB]) {
      const refused = await node.start('grace@example.com', '192.0.2.1').catch((error: unknown) => error);
      expect(refused).toMatchObject({ statusCode: 429, message: SERVER_ERRORS.tooManyLogins });
      expect(refused).toHaveProperty('headers', { 'retry-after': '900' });
    }
  });

  it('a session revoked through one node is refused by the other at once', async () => {
    const user = await addReader(a);
    const first = await createSession(a, user);
    const second = await createSession(b, user);
    expect(await isSessionActive(b, first)).toBe(true);
    expect(await isSessionActive(a, second)).toBe(true);
    await revokeSession(a, first.sid);
    expect(await isSessionActive(b, first)).toBe(false);
    expect(await isSessionActive(b, second)).toBe(true);
    await revokeUserSessions(b, user);
    expect(await isSessionActive(a, second)).toBe(false);
    const third = await createSession(a, user);
    expect(await isSessionActive(b, third)).toBe(true);
    await deleteUser(a, user);
    expect(await isSessionActive(b, third)).toBe(false);
  });

  it('a Google sign-in code issued by one node is redeemed by the other, once, even when both try at once', async () => {
    const user = await addReader(a);
    const nonce = 'tab-nonce-'.padEnd(32, 'n');
    const onA = new SignInCodes(a);
    const onB = new SignInCodes(b);
    const code = (await onA.issue(user, nonce)) ?? '';
    expect(await onB.redeem(code, nonce)).toBe(user);
    expect(await onA.redeem(code, nonce)).toBeNull();
    expect(await onB.redeem(code, nonce)).toBeNull();
    for (let round = 0; round < 10; round += 1) {
      const raced = (await onB.issue(user, nonce)) ?? '';
      const trades = await Promise.all([
        onA.redeem(raced, nonce),
        onB.redeem(raced, nonce),
        onA.redeem(raced, nonce),
        onB.redeem(raced, nonce),
      ]);
      expect(trades.filter((trade) => trade === user)).toHaveLength(1);
      expect(trades.filter((trade) => trade === null)).toHaveLength(3);
    }
    expect(await onA.size()).toBe(0);
  });
});
