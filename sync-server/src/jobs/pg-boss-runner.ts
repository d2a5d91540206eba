// Background jobs on PostgreSQL with pg-boss (jobs/job-runner.ts says what a runner promises): any node
// can take any job, and a job whose node died is taken up by another once it expires.
//
// - The `jobs` row stays the record and the once-only gate, as on SQLite: enqueue inserts it (ON CONFLICT
//   (kind, key) DO NOTHING) and, only when it was new, sends a pg-boss job in the same transaction (pg-boss
//   takes the caller's connection), so the two commit or roll back together. pg-boss's own singleton keys
//   forget a key once its job completes; the row doesn't. The pg-boss job carries the row's id, and the
//   kind and key as its singletonKey, for whoever reads pg-boss's tables.
// - One pg-boss queue per kind. This node takes jobs with fetch() into its own slots rather than work():
//   pg-boss 10 has no teamSize, and a work() worker per slot per kind would let a node run slots × kinds
//   jobs at once. The per-user limit holds among the jobs this node runs: fetch() can't skip a busy user,
//   so a fetched job of a user at the limit here is given back at once (to `created`, its priority and
//   tries unchanged), and this node fetches no more until one of its jobs ends or its next poll. Held
//   here instead, it would take a slot another user's job could use, and run before it.
// - A job in hand when its node dies stays `active` in pg-boss until it expires (expireInSeconds, counted
//   from its start; set it above the longest job), then pg-boss's maintenance, on whichever node runs it,
//   puts it back for a retry and another node fetches it. Its effect happens once because handlers write
//   keyed by the job.
// - The services queue work by writing the `jobs` row alone (enqueueJob, on any node, ROLE=web included,
//   which opens no pg-boss), and a few rows come in bulk (the image backfill). So every worker, before it
//   fetches, sends a pg-boss job for each queued row that has none waiting or running (dispatch), under a
//   transaction-scoped advisory lock so that two workers don't both send one. A row queued by enqueue()
//   already has its pg-boss job and is left alone.
// - Users take turns: pg-boss hands out jobs by priority, then age, and each job is sent with a priority
//   that falls with the number of its user's jobs of its kind already waiting or running (0 for a user's
//   first, -1 for their second…, at most TURNS_COUNTED apart). One account's burst of saves or an import's
//   thousands of rows then wait behind every other user's next job instead of ahead of it, as the
//   in-process queue's per-user turns do on SQLite.
// - A RetryableJobError is retried by pg-boss with exponential backoff (retryDelay seconds, doubling, with
//   jitter) until the last try; any other error fails the job at once (cancelled in pg-boss: no retry).
import { nowIso } from '@lectern/shared-schema';
import { aliasedTable, Param, sql, type SQL } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Db, Queryable } from '../db/database';
import { lockForUser } from '../db/sql-functions';
import { asNumber, returning, rowExists, select, selectFirst } from '../db/typed-select';
import {
  jobSelection,
  retryWaitMs,
  RetryableJobError,
  JobSlots,
  type JobHandler,
  type JobRow,
} from './job-queue';
import {
  LOST_JOB,
  type HandleOptions,
  type JobRunner,
  type JobRunnerLimits,
  type NewJob,
} from './job-runner';

export interface PgBossRunnerOptions extends JobRunnerLimits {
  /** The database pg-boss keeps its tables in: the server's own DATABASE_URL. */
  url: string;
  /** pg-boss's schema in that database. */
  schema?: string;
  /** A job running longer than this is presumed lost with its node and handed to another (JOB_EXPIRE_SECONDS). */
  expireInSeconds: number;
  /** How often a node without work looks for due jobs. */
  pollMs?: number;
  /** How often pg-boss's maintenance (expiring lost jobs among it) runs, on one node at a time. */
  maintenanceIntervalSeconds?: number;
  /** pg-boss's own connections from this node. */
  poolSize?: number;
  /** Shown in pg_stat_activity for pg-boss's connections. */
  applicationName?: string;
  /** How long stop() waits for the jobs in hand before leaving them to expire. */
  stopTimeoutMs?: number;
  /** Told of every failure the runner survives (a refused fetch, a lost connection). */
  onError?: (error: unknown) => void;
}

/** What a pg-boss job carries: the `jobs` row it runs. */
interface BossJobData {
  jobId: number;
}

/** The lock a worker holds while it sends pg-boss jobs for queued rows, so that no row is sent twice. */
const DISPATCH_LOCK = 7_240_415_002;

/** Rows sent to pg-boss per dispatch; the rest go at the next one (the next pump or poll). */
const DISPATCH_BATCH = 200;

/**
 * How many of a user's waiting jobs are counted for a new job's priority: beyond it they share the lowest,
 * in order of age. Counting stops there, so queuing an import's 50,000th row costs what the 10th did.
 */
const TURNS_COUNTED = 16;

/** pg-boss's queue names allow letters, digits, `_`, `-` and `.`; our kinds are already such names. */
const queueOf = (kind: string) => `lectern.${kind}`;

/**
 * The caller's connection or transaction as pg-boss's `db` option, so that its insert lands in the same
 * transaction as the `jobs` row. pg-boss hands SQL with $1…$n placeholders; each becomes a drizzle
 * parameter, rendered back as a placeholder by the connection.
 */
function asBossDb(db: Queryable): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const pieces = text.split(/\$(\d+)/);
      const strings: string[] = [];
      const params: Param[] = [];
      for (let i = 0; i < pieces.length; i += 2) {
        strings.push(pieces[i] ?? '');
        if (i + 1 < pieces.length) params.push(new Param(values[Number(pieces[i + 1]) - 1] ?? null));
      }
      const template = Object.assign(strings, { raw: strings }) as unknown as TemplateStringsArray;
      const query: SQL = sql(template, ...params);
      // pg-boss reads rows of its own tables: their shape is its business.
      return { rows: await db.all(query) };
    },
  };
}

/**
 * How many of the user's other jobs of this kind wait or run, up to TURNS_COUNTED (jobs_user_kind_status_idx).
 * In the queuing transaction, after the user's lock: two of their jobs queued at once (one account's burst
 * of saves) count each other, the second after the first committed.
 */
async function userJobsAhead(db: Queryable, kind: string, userId: string, jobId: number): Promise<number> {
  await lockForUser(db, 'jobs', userId);
  const counted = await selectFirst(
    db,
    { n: asNumber(sql`count(*)`) },
    sql`FROM (SELECT 1 FROM jobs WHERE user_id = ${userId} AND kind = ${kind}
        AND status IN ('queued', 'running') AND id <> ${jobId} LIMIT ${TURNS_COUNTED}) ahead`,
  );
  return counted?.n ?? 0;
}

export class PgBossJobRunner implements JobRunner {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly afterJobHooks: ((job: JobRow) => void | Promise<void>)[] = [];
  private readonly queues = new Map<string, Promise<void>>();
  private readonly running = new Set<Promise<void>>();
  /** Each user's jobs running on this node (JobSlots). */
  private readonly slots: JobSlots;
  private started: Promise<unknown> | null = null;
  private working = false;
  private killed = false;
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;
  private nextKind = 0;
  private readonly retryDelaySeconds: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly db: Db,
    private readonly options: PgBossRunnerOptions,
  ) {
    this.onError = options.onError ?? (() => {});
    this.slots = new JobSlots(options.perUser);
    this.retryDelaySeconds = Math.max(1, Math.round(options.retryBaseMs / 1000));
    this.boss = new PgBoss({
      connectionString: options.url,
      schema: options.schema ?? 'pgboss',
      application_name: options.applicationName ?? 'lectern-jobs',
      max: options.poolSize ?? 4,
      // Cron schedules are not used; maintenance expires the jobs of dead nodes.
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    });
    this.boss.on('error', this.onError);
  }

  handle(kind: string, handler: JobHandler, options: HandleOptions = {}): void {
    this.handlers.set(kind, handler);
    if (options.waitedOn) this.slots.waitedOn.add(kind);
  }

  afterEachJob(hook: (job: JobRow) => void | Promise<void>): void {
    this.afterJobHooks.push(hook);
  }

  /** Resolves once no `jobs` row is queued or running and this node has nothing in hand. */
  async idle(): Promise<void> {
    for (;;) {
      const open = await rowExists(this.db, sql`FROM jobs WHERE status IN ('queued', 'running')`);
      if (!open && this.running.size === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Opens pg-boss (its tables are made or migrated on first use) for queuing; start() also works. */
  async open(): Promise<void> {
    this.started ??= this.boss.start();
    await this.started;
  }

  async enqueue(db: Queryable, job: NewJob): Promise<void> {
    // The queue first, on pg-boss's own connection: it is DDL, once per kind, not part of the caller's work.
    await this.queue(job.kind);
    const at = nowIso();
    const [row] = await returning(
      db,
      { id: db.tables.jobs.id },
      sql`INSERT INTO jobs (kind, key, user_id, group_id, payload, status, attempts, run_after, created_at, updated_at)
          VALUES (${job.kind}, ${job.key}, ${job.userId}, ${job.groupId ?? null}, ${JSON.stringify(job.payload ?? {})}, 'queued', 0, ${at}, ${at}, ${at})
          ON CONFLICT (kind, key) DO NOTHING`,
    );
    if (row) await this.send(db, job.kind, job.key, row.id, job.userId);
  }

  async requeue(db: Queryable, kind: string, key: string): Promise<void> {
    await this.queue(kind);
    const at = nowIso();
    const { jobs } = db.tables;
    const [row] = await returning(
      db,
      { id: jobs.id, user_id: jobs.userId },
      sql`UPDATE jobs SET status = 'queued', attempts = 0, run_after = ${at}, last_error = NULL, updated_at = ${at}
          WHERE kind = ${kind} AND key = ${key} AND status IN ('done', 'failed')`,
    );
    if (row) await this.send(db, kind, key, row.id, row.user_id);
  }

  wake(): void {
    if (!this.working) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      if (this.pumpAgain) {
        this.pumpAgain = false;
        return this.wake();
      }
      this.schedulePoll();
    });
  }

  async start(): Promise<void> {
    if (this.working) return;
    await this.open();
    await Promise.all([...this.handlers.keys()].map((kind) => this.queue(kind)));
    this.working = true;
    this.wake();
  }

  /** Stops taking jobs, waits for those in hand (up to stopTimeoutMs), then closes pg-boss. */
  async stop(): Promise<void> {
    this.working = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pumping;
    const inHand = Promise.allSettled([...this.running]);
    const timeout = this.options.stopTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      inHand.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeout))),
    ]);
    clearTimeout(timer);
    // Jobs still running are left as a dead node's are: `running` until they expire and another node
    // takes them up; what they write when they end here is keyed by the job, so it counts once.
    if (!finished) this.killed = true;
    if (this.started) await this.boss.stop({ graceful: false, wait: true, close: true });
    this.started = null;
  }

  /**
   * As if this node died (tests): stops taking jobs and closes pg-boss's connections at once, leaving
   * what it had in hand `active` for another node to take up after it expires. Handlers still running
   * here write nothing to the `jobs` row or pg-boss when they end.
   */
  async kill(): Promise<void> {
    this.killed = true;
    this.working = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.boss.stop({ graceful: false, wait: true, close: true }).catch(this.onError);
  }

  private queue(kind: string): Promise<void> {
    let created = this.queues.get(kind);
    if (!created) {
      created = this.open().then(() => this.createQueue(kind));
      created.catch(() => this.queues.delete(kind)); // a later call tries again
      this.queues.set(kind, created);
    }
    return created;
  }

  /**
   * pg-boss's createQueue is idempotent but not safe against itself: nodes starting at once each create
   * the queue's table, and PostgreSQL may pick one of them as a deadlock's victim. That one tries again.
   */
  private async createQueue(kind: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (await this.boss.getQueue(queueOf(kind))) return;
        await this.boss.createQueue(queueOf(kind), {
          name: queueOf(kind),
          policy: 'standard',
          retryLimit: Math.max(0, this.options.maxAttempts - 1),
          retryDelay: this.retryDelaySeconds,
          retryBackoff: true,
          expireInSeconds: this.options.expireInSeconds,
        });
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= 5 || (code !== '40P01' && code !== '23505')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
      }
    }
  }

  private async send(db: Queryable, kind: string, key: string, jobId: number, userId: string): Promise<void> {
    const data: BossJobData = { jobId };
    await this.boss.send(queueOf(kind), data, {
      db: asBossDb(db),
      singletonKey: `${kind}:${key}`,
      priority: -(await userJobsAhead(db, kind, userId, jobId)),
      retryLimit: Math.max(0, this.options.maxAttempts - 1),
      retryDelay: this.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: this.options.expireInSeconds,
    });
  }

  private schedulePoll(): void {
    if (!this.working) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), this.options.pollMs ?? 1_000);
    this.timer.unref();
  }

  private get freeSlots(): number {
    return this.options.concurrency - this.running.size;
  }

  /** Fetches jobs into the free slots, taking the kinds in turn so that none starves the others. */
  private async pump(): Promise<void> {
    const kinds = [...this.handlers.keys()];
    try {
      await this.dispatch(kinds);
      let fetched = true;
      // A job given back (its user at the limit here) would be fetched again first: no more this time.
      let gaveBack = false;
      while (this.working && this.freeSlots > 0 && fetched && !gaveBack) {
        fetched = false;
        for (let i = 0; i < kinds.length && this.working && this.freeSlots > 0; i++) {
          const kind = kinds[(this.nextKind + i) % kinds.length] ?? '';
          const jobs = await this.boss.fetch<BossJobData>(queueOf(kind), {
            batchSize: this.freeSlots,
            includeMetadata: true,
          });
          // pg-boss picks a batch by priority, then age, but answers it in no order: taken in that order.
          jobs.sort((x, y) => y.priority - x.priority || x.createdOn.getTime() - y.createdOn.getTime());
          for (const job of jobs) {
            fetched = true;
            if ((await this.take(kind, job)) === 'given back') gaveBack = true;
          }
        }
        this.nextKind = (this.nextKind + 1) % Math.max(1, kinds.length);
      }
    } catch (error) {
      // The database refused (restarting, closing): the next poll tries again.
      this.onError(error);
    }
  }

  /**
   * Sends a pg-boss job for each queued `jobs` row of these kinds that has none waiting or running (the
   * rows the services queued with enqueueJob), in one transaction with the lock that keeps two workers
   * from sending the same row. pg-boss's states are an enum in this order: created, retry, active, then
   * the ended ones.
   */
  private async dispatch(kinds: readonly string[]): Promise<void> {
    if (kinds.length === 0) return;
    const schema = sql.identifier(this.options.schema ?? 'pgboss');
    await this.db.transaction(async (tx) => {
      await tx.run(sql`SELECT pg_advisory_xact_lock(${DISPATCH_LOCK})`);
      const j = aliasedTable(tx.tables.jobs, 'j');
      const rows = await select(
        tx,
        { id: j.id, kind: j.kind, key: j.key, user_id: j.userId },
        sql`FROM jobs j
             WHERE j.status = 'queued' AND j.kind IN ${kinds}
               AND NOT EXISTS (SELECT 1 FROM ${schema}.job b
                                WHERE b.name = 'lectern.' || j.kind AND b.singleton_key = j.kind || ':' || j.key
                                  AND b.state < 'completed')
             ORDER BY j.id LIMIT ${DISPATCH_BATCH}`,
      );
      for (const row of rows) await this.send(tx, row.kind, row.key, row.id, row.user_id);
      // A row still `running` whose pg-boss job has ended: its tries ran out by expiring (each of its nodes
      // died, or it ran past JOB_EXPIRE_SECONDS each time), so pg-boss failed it without our handler
      // hearing of it. Failed here too, so a request waiting for it answers now, not after its wait.
      await tx.run(
        sql`UPDATE jobs j SET status = 'failed', last_error = ${LOST_JOB}, updated_at = ${nowIso()}
             WHERE j.status = 'running' AND j.kind IN ${kinds}
               AND NOT EXISTS (SELECT 1 FROM ${schema}.job b
                                WHERE b.name = 'lectern.' || j.kind AND b.singleton_key = j.kind || ':' || j.key
                                  AND b.state < 'completed')`,
      );
    });
  }

  /** Starts a fetched job, or gives it back while its user is at the per-user limit on this node. */
  private async take(
    kind: string,
    job: PgBoss.JobWithMetadata<BossJobData>,
  ): Promise<'started' | 'given back' | 'cancelled'> {
    // pg-boss's tables are anyone's to write: a job that doesn't name a `jobs` row is not run but cancelled,
    // rather than throw here and leave the rest of its batch fetched and idle until they expire.
    const jobId: unknown = (job.data as Partial<BossJobData> | null)?.jobId;
    const row = Number.isSafeInteger(jobId)
      ? await selectFirst(this.db, jobSelection(this.db), sql`FROM jobs WHERE id = ${jobId}`)
      : undefined;
    if (!row) {
      // Its user was deleted (the row goes with them), or it names no row: nothing left to do.
      await this.boss.cancel(queueOf(kind), job.id);
      return 'cancelled';
    }
    if (this.slots.of(kind).full(row.user_id)) {
      await this.giveBack([{ kind, job }]);
      return 'given back';
    }
    this.run(kind, job, row);
    return 'started';
  }

  private run(kind: string, job: PgBoss.JobWithMetadata<BossJobData>, row: JobRow): void {
    const slots = this.slots.of(kind);
    slots.take(row.user_id);
    const work = this.execute(kind, job, row)
      .catch(this.onError)
      .finally(() => {
        this.running.delete(work);
        slots.release(row.user_id);
        if (!this.killed)
          for (const hook of this.afterJobHooks) void Promise.resolve(row).then(hook).catch(this.onError);
        this.wake();
      });
    this.running.add(work);
  }

  private async execute(kind: string, job: PgBoss.JobWithMetadata<BossJobData>, row: JobRow): Promise<void> {
    const attempts = job.retryCount + 1;
    const lastTry = job.retryCount >= job.retryLimit;
    await this.db.run(
      sql`UPDATE jobs SET status = 'running', attempts = ${attempts}, updated_at = ${nowIso()} WHERE id = ${row.id}`,
    );
    const handler = this.handlers.get(kind);
    try {
      if (!handler) throw new Error(`No handler for jobs of kind ${kind}`);
      await handler({ ...row, attempts }, { lastTry });
    } catch (error) {
      if (this.killed) return;
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof RetryableJobError && !lastTry) {
        // pg-boss waits this long at least (it adds up to as much again of jitter).
        const after = new Date(Date.now() + retryWaitMs(this.retryDelaySeconds * 1000, attempts));
        await this.mark(row.id, 'queued', message, after.toISOString());
        await this.boss.fail(queueOf(kind), job.id, { message });
        return;
      }
      await this.mark(row.id, 'failed', message);
      if (lastTry) await this.boss.fail(queueOf(kind), job.id, { message });
      else await this.boss.cancel(queueOf(kind), job.id);
      return;
    }
    if (this.killed) return;
    await this.mark(row.id, 'done', null);
    await this.boss.complete(queueOf(kind), job.id);
  }

  private async mark(id: number, status: string, error: string | null, runAfter?: string): Promise<void> {
    const at = nowIso();
    await this.db.run(
      sql`UPDATE jobs SET status = ${status}, last_error = ${error}, run_after = ${runAfter ?? at}, updated_at = ${at} WHERE id = ${id}`,
    );
  }

  /** Jobs fetched but not started, handed back to pg-boss for any node to fetch now. */
  private async giveBack(held: { kind: string; job: PgBoss.JobWithMetadata<BossJobData> }[]): Promise<void> {
    for (const { kind, job } of held) {
      // cancel then resume: back to `created`, its tries unchanged. One transaction, so that a job is never
      // left cancelled (never to run) by a stop cut short between the two; if it fails, the job expires.
      await this.db
        .transaction(async (tx) => {
          const db = asBossDb(tx);
          await this.boss.cancel(queueOf(kind), job.id, { db });
          await this.boss.resume(queueOf(kind), job.id, { db });
        })
        .catch(this.onError);
    }
  }
}
