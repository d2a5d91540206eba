// Background jobs on PostgreSQL: two runners on one throwaway database stand for two nodes.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { openPostgres } from '../db/postgres/connection';
import { createTestDatabase, stopTestCluster } from '../testing/postgres-cluster';
import { RetryableJobError, type JobHandler, type JobRow } from './job-queue';
import { LOST_JOB } from './job-runner';
import { PgBossJobRunner, type PgBossRunnerOptions } from './pg-boss-runner';

afterAll(stopTestCluster);

const AT = '2030-01-01T00:00:00.000Z';
const KIND = 'extract_page';
let url: string;
let admin: pg.Client;
const dbs: Db[] = [];
const runners: PgBossJobRunner[] = [];

beforeEach(async () => {
  url = await createTestDatabase();
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`INSERT INTO users (id, email, created_at) VALUES ('ann', 'ann@example.com', '${AT}'),
    ('bob', 'bob@example.com', '${AT}')`);
  // What a job's work writes, keyed by the job: a second run of the same job changes nothing.
  await admin.query('CREATE TABLE job_effects (key text PRIMARY KEY, node text NOT NULL)');
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop().catch(() => {})));
  await Promise.all(dbs.splice(0).map((db) => db.close()));
  await admin.end();
});

/** A node: its own connections to the database and its own runner. */
async function node(
  options: Partial<PgBossRunnerOptions> = {},
): Promise<{ db: Db; runner: PgBossJobRunner }> {
  const db = await openPostgres(url, { poolSize: 4 });
  dbs.push(db);
  const runner = new PgBossJobRunner(db, {
    url,
    concurrency: 2,
    perUser: 2,
    maxAttempts: 3,
    retryBaseMs: 1_000,
    expireInSeconds: 2,
    pollMs: 100,
    maintenanceIntervalSeconds: 1,
    stopTimeoutMs: 2_000,
    poolSize: 3,
    ...options,
  });
  runners.push(runner);
  return { db, runner };
}

/** The effect of a job, written once however often it runs. */
async function writeEffect(db: Db, job: JobRow, nodeName: string): Promise<void> {
  await db.run(
    sql`INSERT INTO job_effects (key, node) VALUES (${job.key}, ${nodeName}) ON CONFLICT DO NOTHING`,
  );
}

async function jobRow(key: string) {
  const { rows } = await admin.query<{ status: string; attempts: number; last_error: string | null }>(
    'SELECT status, attempts, last_error FROM jobs WHERE kind = $1 AND key = $2',
    [KIND, key],
  );
  return rows[0];
}

async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The states of the pg-boss jobs of KIND, oldest first. */
async function bossStates(): Promise<string[]> {
  const { rows } = await admin.query<{ state: string }>(
    "SELECT state FROM pgboss.job WHERE name = 'lectern.extract_page' ORDER BY created_on, id",
  );
  return rows.map((row) => row.state);
}

const done = (key: string) => async () => (await jobRow(key))?.status === 'done';

describe('PgBossJobRunner', () => {
  it('runs a job queued twice (from two nodes) once, and a job whose transaction rolled back never', async () => {
    const a = await node();
    const b = await node();
    const runs: string[] = [];
    const handler: JobHandler = async (job) => {
      runs.push(job.key);
    };
    a.runner.handle(KIND, handler);
    b.runner.handle(KIND, handler);
    await a.runner.open();
    await b.runner.open();
    const job = { kind: KIND, key: 'page-1', userId: 'ann', payload: { url: 'https://example.org/1' } };
    await Promise.all([
      a.db.transaction((tx) => a.runner.enqueue(tx, job)),
      b.db.transaction((tx) => b.runner.enqueue(tx, job)),
    ]);
    await a.db.transaction((tx) => a.runner.enqueue(tx, job));
    await expect(
      a.db.transaction(async (tx) => {
        await a.runner.enqueue(tx, { ...job, key: 'page-2' });
        throw new Error('the save failed');
      }),
    ).rejects.toThrow('the save failed');
    const sent = await admin.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'lectern.extract_page'",
    );
    expect(sent.rows).toEqual([{ n: 1 }]);
    await a.runner.start();
    await b.runner.start();
    await eventually(done('page-1'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runs).toEqual(['page-1']);
    expect(await jobRow('page-1')).toEqual({ status: 'done', attempts: 1, last_error: null });
    expect(await jobRow('page-2')).toBeUndefined();
  });

  it('retries a retryable failure with growing waits, then gives the last try', async () => {
    const a = await node();
    const tries: { at: number; attempts: number; lastTry: boolean }[] = [];
    a.runner.handle(KIND, async (job, { lastTry }) => {
      tries.push({ at: Date.now(), attempts: job.attempts, lastTry });
      throw new RetryableJobError('the site answered 503');
    });
    await a.runner.start();
    await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key: 'busy-site', userId: 'ann' }));
    await eventually(async () => (await jobRow('busy-site'))?.status === 'failed', 20_000);
    expect(tries.map(({ attempts, lastTry }) => ({ attempts, lastTry }))).toEqual([
      { attempts: 1, lastTry: false },
      { attempts: 2, lastTry: false },
      { attempts: 3, lastTry: true },
    ]);
    const [first, second, third] = tries.map((t) => t.at);
    // retryDelay 1 s: the first retry after 1–2 s, the second after 2–4 s (pg-boss adds jitter).
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(900);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(1_900);
    expect(await jobRow('busy-site')).toEqual({
      status: 'failed',
      attempts: 3,
      last_error: 'the site answered 503',
    });
  }, 30_000);

  it('fails a job at once on an error not worth retrying', async () => {
    const a = await node();
    let calls = 0;
    a.runner.handle(KIND, async () => {
      calls++;
      throw new Error('not an article');
    });
    await a.runner.start();
    await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key: 'pdf', userId: 'ann' }));
    await eventually(async () => (await jobRow('pdf'))?.status === 'failed');
    // Cancelled in pg-boss, not failed: a failed job with tries left would run again after retryDelay.
    await eventually(async () => (await bossStates()).join() === 'cancelled');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(calls).toBe(1);
    expect(await jobRow('pdf')).toEqual({ status: 'failed', attempts: 1, last_error: 'not an article' });
  });

  it('runs a job that ended again when it is queued again (Retry), once however often Retry is pressed', async () => {
    const a = await node();
    let calls = 0;
    a.runner.handle(KIND, async () => {
      calls++;
      if (calls === 1) throw new Error('the page was empty');
    });
    await a.runner.start();
    await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key: 'page-1', userId: 'ann' }));
    await eventually(async () => (await jobRow('page-1'))?.status === 'failed');
    await a.db.transaction(async (tx) => {
      await a.runner.requeue(tx, KIND, 'page-1');
      await a.runner.requeue(tx, KIND, 'page-1');
    });
    await eventually(done('page-1'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls).toBe(2);
    expect(await jobRow('page-1')).toEqual({ status: 'done', attempts: 1, last_error: null });
    expect(await bossStates()).toEqual(['cancelled', 'completed']);
  });

  it('cancels a pg-boss job that names no `jobs` row, and still runs the rest of its batch', async () => {
    const a = await node({ concurrency: 3 });
    const runs: string[] = [];
    a.runner.handle(KIND, async (job) => {
      runs.push(job.key);
    });
    await a.runner.open();
    const other = new PgBoss({ connectionString: url, supervise: false, schedule: false, max: 1 });
    await other.start();
    await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key: 'page-1', userId: 'ann' }));
    await other.send('lectern.extract_page', { jobId: 'page-1' });
    await other.send('lectern.extract_page', { jobId: 424_242 });
    await other.stop({ graceful: false, wait: true, close: true });
    await a.runner.start();
    await eventually(async () => (await bossStates()).join() === 'completed,cancelled,cancelled');
    expect(runs).toEqual(['page-1']);
    expect(await jobRow('page-1')).toEqual({ status: 'done', attempts: 1, last_error: null });
  });

  it('shares the work between two nodes, each job once, at most `concurrency` at a time on a node', async () => {
    const a = await node();
    const b = await node();
    const ranOn: Record<string, string[]> = { a: [], b: [] };
    const inHand = { a: 0, b: 0 };
    let most = 0;
    for (const [name, { db, runner }] of [
      ['a', a],
      ['b', b],
    ] as const) {
      runner.handle(KIND, async (job) => {
        inHand[name]++;
        most = Math.max(most, inHand[name]);
        await new Promise((resolve) => setTimeout(resolve, 150));
        await writeEffect(db, job, name);
        ranOn[name]?.push(job.key);
        inHand[name]--;
      });
    }
    await a.runner.open();
    const keys = Array.from({ length: 12 }, (_, i) => `page-${i}`);
    await a.db.transaction(async (tx) => {
      for (const [i, key] of keys.entries())
        await a.runner.enqueue(tx, { kind: KIND, key, userId: i % 2 ? 'ann' : 'bob' });
    });
    await Promise.all([a.runner.start(), b.runner.start()]);
    await eventually(async () => {
      const { rows } = await admin.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM jobs WHERE status = 'done'",
      );
      return rows[0]?.n === keys.length;
    });
    expect([...(ranOn.a ?? []), ...(ranOn.b ?? [])].sort()).toEqual([...keys].sort());
    expect(ranOn.a?.length).toBeGreaterThan(0);
    expect(ranOn.b?.length).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('runs no more than `perUser` jobs of one user at once on a node, while others use the free slots', async () => {
    const a = await node({ concurrency: 3, perUser: 1 });
    const inHand: Record<string, number> = { ann: 0, bob: 0 };
    const most: Record<string, number> = { ann: 0, bob: 0 };
    a.runner.handle(KIND, async (job) => {
      inHand[job.user_id] = (inHand[job.user_id] ?? 0) + 1;
      most[job.user_id] = Math.max(most[job.user_id] ?? 0, inHand[job.user_id] ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 150));
      inHand[job.user_id] = (inHand[job.user_id] ?? 1) - 1;
    });
    await a.runner.open();
    await a.db.transaction(async (tx) => {
      for (const key of ['ann-1', 'ann-2', 'ann-3', 'ann-4'])
        await a.runner.enqueue(tx, { kind: KIND, key, userId: 'ann' });
      await a.runner.enqueue(tx, { kind: KIND, key: 'bob-1', userId: 'bob' });
    });
    await a.runner.start();
    await eventually(async () => {
      const { rows } = await admin.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM jobs WHERE status = 'done'",
      );
      return rows[0]?.n === 5;
    });
    expect(most).toEqual({ ann: 1, bob: 1 });
  });

  it('starts a job a request waits for while its user is at the per-user limit on this node', async () => {
    const a = await node({ concurrency: 3, perUser: 1 });
    const started: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    a.runner.handle(KIND, async (job) => {
      started.push(job.key);
      await held;
    });
    a.runner.handle(
      'waited',
      async (job) => {
        started.push(job.key);
      },
      { waitedOn: true },
    );
    await a.runner.open();
    try {
      await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key: 'images-1', userId: 'ann' }));
      await a.runner.start();
      await eventually(async () => started.includes('images-1'));
      await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: 'waited', key: 'save-1', userId: 'ann' }));
      a.runner.wake();
      // Ann's one slot is held by her background job: the save runs beside it, not after it.
      await eventually(async () => {
        const { rows } = await admin.query<{ status: string }>(
          "SELECT status FROM jobs WHERE key = 'save-1'",
        );
        return rows[0]?.status === 'done';
      });
      expect(started).toEqual(['images-1', 'save-1']);
    } finally {
      release();
    }
  });

  it("gives each user's next job its turn: a job queued after another user's five runs second", async () => {
    // One job at a time, so the order they are handed out in is the order they run in.
    const a = await node({ concurrency: 1, perUser: 1 });
    const order: string[] = [];
    a.runner.handle(KIND, async (job) => {
      order.push(job.key);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await a.runner.open();
    // Queued by enqueue (a save) and by a bare `jobs` row (an import's rows), which dispatch sends.
    for (const key of ['ann-1', 'ann-2', 'ann-3'])
      await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key, userId: 'ann' }));
    await admin.query(
      `INSERT INTO jobs (kind, key, user_id, payload, status, attempts, run_after, created_at, updated_at)
       VALUES ($1, 'ann-4', 'ann', '{}', 'queued', 0, $2, $2, $2), ($1, 'ann-5', 'ann', '{}', 'queued', 0, $2, $2, $2)`,
      [KIND, AT],
    );
    await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key: 'bob-1', userId: 'bob' }));
    await a.runner.start();
    await eventually(async () => order.length === 6);
    expect(order.slice(0, 4)).toEqual(['ann-1', 'bob-1', 'ann-2', 'ann-3']);
    // Sent in one transaction with the same priority: pg-boss orders those two by their random ids.
    expect(order.slice(4).sort()).toEqual(['ann-4', 'ann-5']);
    // pg-boss's priorities as sent: minus the user's other jobs waiting then. The two rows sent together
    // by dispatch each count the other.
    const { rows } = await admin.query<{ key: string; priority: number }>(
      "SELECT split_part(singleton_key, ':', 2) AS key, priority FROM pgboss.job WHERE name = 'lectern.extract_page' ORDER BY 1",
    );
    expect(rows).toEqual([
      { key: 'ann-1', priority: 0 },
      { key: 'ann-2', priority: -1 },
      { key: 'ann-3', priority: -2 },
      { key: 'ann-4', priority: -4 },
      { key: 'ann-5', priority: -4 },
      { key: 'bob-1', priority: 0 },
    ]);
  });

  it('fails the row of a job whose every try expired, so that nobody waits on it', async () => {
    const a = await node({ maxAttempts: 1, expireInSeconds: 1 });
    // A try that never ends: pg-boss expires it, and with no try left, fails the job.
    a.runner.handle(KIND, () => new Promise<void>(() => {}));
    await a.runner.open();
    await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key: 'endless', userId: 'ann' }));
    await a.runner.start();
    await eventually(async () => (await jobRow('endless'))?.status === 'running');
    await eventually(async () => (await jobRow('endless'))?.status === 'failed');
    expect(await jobRow('endless')).toEqual({ status: 'failed', attempts: 1, last_error: LOST_JOB });
    expect(await bossStates()).toEqual(['failed']);
  });

  it('takes up the job of a node killed mid-job on another node, and its effect happens once', async () => {
    const a = await node();
    const b = await node();
    let releaseA: () => void = () => {};
    let startedOnA: () => void = () => {};
    const aStarted = new Promise<void>((resolve) => (startedOnA = resolve));
    a.runner.handle(KIND, async (job) => {
      startedOnA();
      // Node A hangs in the middle of its work (a dead machine), then, too late, finishes it anyway.
      await new Promise<void>((resolve) => (releaseA = resolve));
      await writeEffect(a.db, job, 'a');
    });
    let tookOver = 0;
    b.runner.handle(KIND, async (job) => {
      tookOver = Date.now();
      await writeEffect(b.db, job, 'b');
    });
    await a.runner.start();
    await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key: 'page-1', userId: 'ann' }));
    await aStarted;
    expect(await jobRow('page-1')).toMatchObject({ status: 'running', attempts: 1 });
    const killedAt = Date.now();
    await a.runner.kill();
    await b.runner.start();
    await eventually(done('page-1'));
    console.log(
      `job takeover after its node was killed: ${tookOver - killedAt} ms (expireInSeconds 2, maintenance every 1 s)`,
    );
    releaseA();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const effects = await admin.query('SELECT key, node FROM job_effects');
    expect(effects.rows).toEqual([{ key: 'page-1', node: 'b' }]);
    expect(await jobRow('page-1')).toEqual({ status: 'done', attempts: 2, last_error: null });
  }, 30_000);

  it('gives a fetched job back at once while its user is at the limit on this node: another node takes it now', async () => {
    const a = await node({ concurrency: 2, perUser: 1 });
    const ran: { key: string; node: string; at: number }[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    a.runner.handle(KIND, async (job) => {
      ran.push({ key: job.key, node: 'a', at: Date.now() });
      await held;
    });
    await a.runner.open();
    await a.db.transaction(async (tx) => {
      await a.runner.enqueue(tx, { kind: KIND, key: 'page-1', userId: 'ann' });
      await a.runner.enqueue(tx, { kind: KIND, key: 'page-2', userId: 'ann' });
    });
    await a.runner.start();
    // Both fetched in one batch: Ann's second, over her one slot here, goes back to pg-boss at once.
    await eventually(async () => (await bossStates()).sort().join() === 'active,created');
    expect(ran.map((each) => each.key)).toEqual(['page-1']);
    expect(await jobRow('page-2')).toMatchObject({ status: 'queued' });

    const b = await node({ concurrency: 2, perUser: 1 });
    b.runner.handle(KIND, async (job) => {
      ran.push({ key: job.key, node: 'b', at: Date.now() });
    });
    await b.runner.start();
    await eventually(done('page-2'));
    // Taken by the other node while the first still ran Ann's first job.
    expect(ran.map((each) => `${each.key} on ${each.node}`)).toEqual(['page-1 on a', 'page-2 on b']);
    release();
    await eventually(done('page-1'));
    // pg-boss hears of the end just after the row does.
    await eventually(async () => (await bossStates()).join() === 'completed,completed');
  });

  it('waits for the jobs in hand on a graceful stop and leaves no connection behind', async () => {
    const a = await node({ applicationName: 'node-a-jobs' });
    let finished = false;
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    a.runner.handle(KIND, async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = true;
    });
    await a.runner.start();
    await a.db.transaction((tx) => a.runner.enqueue(tx, { kind: KIND, key: 'page-1', userId: 'ann' }));
    await running;
    await a.runner.stop();
    expect(finished).toBe(true);
    expect(await jobRow('page-1')).toMatchObject({ status: 'done' });
    await eventually(async () => {
      const { rows } = await admin.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'node-a-jobs'",
      );
      return rows[0]?.n === 0;
    }, 3_000);
  });
});
