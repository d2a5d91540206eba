// A node's wiring on each engine: what it picks (the in-process queue and signal on SQLite, pg-boss and
// LISTEN/NOTIFY on PostgreSQL) and, on PostgreSQL, nodes built from the configuration as the server builds
// them, each with its own connections to one throwaway database: a job a web node queues (as the services
// do, by writing its `jobs` row) is run by a worker; a worker killed mid-job leaves it to another, whose
// effect lands once; JOB_CONCURRENCY holds per node; a signal published on one node reaches another's.
import type { Article } from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config';
import { openSqlite } from '../db/connection';
import type { Db } from '../db/database';
import { openPostgres } from '../db/postgres/connection';
import { queueAndAwait, writeOutcome } from '../jobs/awaited-jobs';
import { enqueueJob, JobQueue, type JobHandler, type JobRow } from '../jobs/job-queue';
import type { JobRunner } from '../jobs/job-runner';
import { PgBossJobRunner } from '../jobs/pg-boss-runner';
import { inProcessFeedSignals, type FeedSignals } from '../live/feed-signals';
import { createTestDatabase, stopTestCluster } from '../testing/postgres-cluster';
import { jobRunnerFor, openFeedSignals, runsJobs, servesRequests } from './node-wiring';

afterAll(stopTestCluster);

const AT = '2030-01-01T00:00:00.000Z';
const KIND = 'extract_page';
const JWT_SECRET = 'test-secret-'.padEnd(48, 'x');
let url: string;
let admin: pg.Client;
const dbs: Db[] = [];
const runners: JobRunner[] = [];
const signals: FeedSignals[] = [];

beforeEach(async () => {
  url = await createTestDatabase();
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`INSERT INTO users (id, email, created_at) VALUES ('ann', 'ann@example.com', '${AT}'),
    ('bob', 'bob@example.com', '${AT}'), ('cid', 'cid@example.com', '${AT}')`);
  // What a job's work writes, keyed by the job: a second run of the same job changes nothing.
  await admin.query('CREATE TABLE job_effects (key text PRIMARY KEY, node text NOT NULL)');
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop().catch(() => {})));
  await Promise.all(signals.splice(0).map((signal) => signal.close()));
  await Promise.all(dbs.splice(0).map((db) => db.close()));
  await admin.end();
});

function configOf(env: Record<string, string>): Config {
  return loadConfig({ DATABASE_URL: url, JWT_SECRET, JOB_EXPIRE_SECONDS: '2', ...env }, { appDir: null });
}

/** A node as the server builds one: its own connections, and the runner its configuration picks. */
async function node(
  env: Record<string, string> = {},
): Promise<{ db: Db; runner: JobRunner; config: Config }> {
  const config = configOf(env);
  const db = await openPostgres(url, { poolSize: 4 });
  dbs.push(db);
  const runner = jobRunnerFor(config, db);
  runners.push(runner);
  return { db, runner, config };
}

/** The job's effect, written through the database contract in a transaction, keyed by the job. */
async function writeEffect(db: Db, job: JobRow, nodeName: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run(
      sql`INSERT INTO job_effects (key, node) VALUES (${job.key}, ${nodeName}) ON CONFLICT (key) DO NOTHING`,
    );
  });
}

async function jobRow(key: string) {
  const { rows } = await admin.query<{ status: string; attempts: number }>(
    'SELECT status, attempts FROM jobs WHERE kind = $1 AND key = $2',
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

describe('the engine picks the runner and the signal', () => {
  it('on SQLite: the queue in this process; on PostgreSQL: pg-boss', async () => {
    const sqlite = openSqlite(':memory:');
    dbs.push(sqlite);
    const onSqlite = jobRunnerFor(loadConfig({ JWT_SECRET }, { appDir: null }), sqlite);
    expect(onSqlite).toBeInstanceOf(JobQueue);
    const { runner } = await node();
    expect(runner).toBeInstanceOf(PgBossJobRunner);
  });

  it('ROLE: web answers requests and runs no jobs, worker runs jobs and answers health only, both does both', () => {
    expect([runsJobs('web'), servesRequests('web')]).toEqual([false, true]);
    expect([runsJobs('worker'), servesRequests('worker')]).toEqual([true, false]);
    expect([runsJobs('both'), servesRequests('both')]).toEqual([true, true]);
    expect(configOf({}).role).toBe('both');
  });
});

describe('nodes on one PostgreSQL', () => {
  it('runs on a worker the job a web node queued by writing its row, once, and a web node runs none', async () => {
    const web = await node({ ROLE: 'web' });
    const worker = await node({ ROLE: 'worker' });
    const ranOn: string[] = [];
    const handler =
      (name: string): JobHandler =>
      async (job) => {
        ranOn.push(name);
        await writeEffect(name === 'web' ? web.db : worker.db, job, name);
      };
    web.runner.handle(KIND, handler('web'));
    worker.runner.handle(KIND, handler('worker'));
    // As the server does: only a node whose role runs jobs starts its runner.
    for (const each of [web, worker]) if (runsJobs(each.config.role)) await each.runner.start();
    // As the services queue work: the `jobs` row alone, in the transaction that makes the work needed.
    await web.db.transaction((tx) => enqueueJob(tx, { kind: KIND, key: 'page-1', userId: 'ann' }));
    web.runner.wake();
    await eventually(async () => (await jobRow('page-1'))?.status === 'done');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(ranOn).toEqual(['worker']);
    expect((await admin.query('SELECT key, node FROM job_effects')).rows).toEqual([
      { key: 'page-1', node: 'worker' },
    ]);
    // One pg-boss job for the row, however many dispatches looked at it.
    const sent = await admin.query("SELECT state FROM pgboss.job WHERE name = 'lectern.extract_page'");
    expect(sent.rows).toEqual([{ state: 'completed' }]);
  });

  it('takes up the job of a worker killed mid-job on another worker, and its effect happens once', async () => {
    const a = await node({ ROLE: 'worker' });
    const b = await node({ ROLE: 'worker' });
    let releaseA: () => void = () => {};
    let startedOnA: () => void = () => {};
    const aStarted = new Promise<void>((resolve) => (startedOnA = resolve));
    let runsOnA = 0;
    a.runner.handle(KIND, async (job) => {
      runsOnA++;
      startedOnA();
      // Node A hangs in the middle of its work (a dead machine), then, too late, finishes it anyway.
      await new Promise<void>((resolve) => (releaseA = resolve));
      await writeEffect(a.db, job, 'a');
    });
    let runsOnB = 0;
    b.runner.handle(KIND, async (job) => {
      runsOnB++;
      await writeEffect(b.db, job, 'b');
    });
    await a.runner.start();
    await a.db.transaction((tx) => enqueueJob(tx, { kind: KIND, key: 'page-1', userId: 'ann' }));
    a.runner.wake();
    await aStarted;
    expect(await jobRow('page-1')).toEqual({ status: 'running', attempts: 1 });
    const killedAt = Date.now();
    await (a.runner as PgBossJobRunner).kill();
    await b.runner.start();
    await eventually(async () => (await jobRow('page-1'))?.status === 'done', 20_000);
    console.log(`takeover after the worker was killed: ${Date.now() - killedAt} ms (JOB_EXPIRE_SECONDS=2)`);
    releaseA();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([runsOnA, runsOnB]).toEqual([1, 1]);
    expect((await admin.query('SELECT key, node FROM job_effects')).rows).toEqual([
      { key: 'page-1', node: 'b' },
    ]);
    expect(await jobRow('page-1')).toEqual({ status: 'done', attempts: 2 });
  }, 40_000);

  it('runs the same job twice (its row queued again after it ran): the effect lands once', async () => {
    const a = await node();
    let runs = 0;
    a.runner.handle(KIND, async (job) => {
      runs++;
      await writeEffect(a.db, job, `run-${runs}`);
    });
    await a.runner.start();
    await a.db.transaction((tx) => enqueueJob(tx, { kind: KIND, key: 'page-1', userId: 'ann' }));
    a.runner.wake();
    await eventually(async () => (await jobRow('page-1'))?.status === 'done');
    await a.db.transaction((tx) => a.runner.requeue(tx, KIND, 'page-1'));
    await eventually(async () => runs === 2 && (await jobRow('page-1'))?.status === 'done');
    expect((await admin.query('SELECT key, node FROM job_effects')).rows).toEqual([
      { key: 'page-1', node: 'run-1' },
    ]);
  });

  it('runs at most JOB_CONCURRENCY jobs at once on a node', async () => {
    const a = await node({ JOB_CONCURRENCY: '2', JOB_CONCURRENCY_PER_USER: '2' });
    let inHand = 0;
    let most = 0;
    a.runner.handle(KIND, async (job) => {
      inHand++;
      most = Math.max(most, inHand);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await writeEffect(a.db, job, 'a');
      inHand--;
    });
    await a.db.transaction(async (tx) => {
      for (const [i, userId] of ['ann', 'bob', 'cid', 'ann', 'bob', 'cid'].entries())
        await enqueueJob(tx, { kind: KIND, key: `page-${i}`, userId });
    });
    await a.runner.start();
    await a.runner.idle();
    expect(most).toBe(2);
    expect((await admin.query('SELECT count(*)::int AS n FROM job_effects')).rows).toEqual([{ n: 6 }]);
  });

  it('answers a request on a web node from a job a worker killed mid-job left to another worker, run once', async () => {
    const web = await node({ ROLE: 'web' });
    const a = await node({ ROLE: 'worker' });
    const b = await node({ ROLE: 'worker' });
    let startedOnA: () => void = () => {};
    const aStarted = new Promise<void>((resolve) => (startedOnA = resolve));
    let releaseA: () => void = () => {};
    // As the save job does: its effect and its outcome in one transaction, keyed by the job.
    const saveOn =
      (name: string, db: Db): JobHandler =>
      async (job) => {
        await db.transaction(async (tx) => {
          await tx.run(
            sql`INSERT INTO job_effects (key, node) VALUES (${job.key}, ${name}) ON CONFLICT (key) DO NOTHING`,
          );
          const article = { id: job.key, title: `saved on ${name}` } as unknown as Article;
          await writeOutcome(tx, job.id, JSON.parse(job.payload) as object, { article, alreadySaved: false });
        });
      };
    a.runner.handle(KIND, async (job) => {
      startedOnA();
      await new Promise<void>((resolve) => (releaseA = resolve));
      await saveOn('a', a.db)(job, { lastTry: false });
    });
    b.runner.handle(KIND, saveOn('b', b.db));
    await a.runner.start();
    const asked = Date.now();
    const answer = queueAndAwait(
      // The worker's outcome writes no article: no feed signal, the request reads the row on its own.
      { db: web.db, jobs: web.runner, live: { signals: inProcessFeedSignals() } },
      {
        kind: KIND,
        key: 'ann/page-1',
        userId: 'ann',
        payload: { url: 'x' },
      },
    );
    await aStarted;
    await (a.runner as PgBossJobRunner).kill();
    await b.runner.start();
    const { article } = await answer;
    console.log(`a save's answer on the web node, its first worker killed mid-job: ${Date.now() - asked} ms`);
    expect(article).toEqual({ id: 'ann/page-1', title: 'saved on b' });
    releaseA();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await admin.query('SELECT key, node FROM job_effects')).rows).toEqual([
      { key: 'ann/page-1', node: 'b' },
    ]);
  }, 40_000);

  it("carries a signal published on node A to node B's listener, through LISTEN/NOTIFY", async () => {
    const a = await openFeedSignals(configOf({}));
    const b = await openFeedSignals(configOf({}));
    signals.push(a, b);
    const heard: string[] = [];
    b.subscribe('ann', () => heard.push('ann'));
    b.subscribe('bob', () => heard.push('bob'));
    const sentAt = Date.now();
    a.publish(['ann']);
    await eventually(async () => heard.length > 0, 1_000);
    console.log(`signal from node A to node B: ${Date.now() - sentAt} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual(['ann']);
    const { rows } = await admin.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN lectern_feed%'",
    );
    expect(rows[0]?.n).toBe(2);
  });
});
