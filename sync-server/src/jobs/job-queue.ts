// Background work that outlives a request and a restart: jobs persisted in SQLite, claimed a few at a time
// per user and a bounded number in all, retried with backoff when a failure may pass, each done once.
import { nowIso } from '@lectern/shared-schema';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/connection';
import { statementSlices } from '../db/statement-slices';
import { preparedSelect, type RowOf } from '../db/typed-select';
import type { HandleOptions, JobRunner, NewJob } from './job-runner';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

/** What a job's handler is given of its row. */
export function jobSelection(db: Queryable) {
  const { jobs } = db.tables;
  return {
    id: jobs.id,
    kind: jobs.kind,
    key: jobs.key,
    user_id: jobs.userId,
    group_id: jobs.groupId,
    payload: jobs.payload,
    attempts: jobs.attempts,
  };
}

export type JobRow = RowOf<ReturnType<typeof jobSelection>>;

/** A failure worth another try later (a timeout, a 5xx, a busy site); anything else fails the job at once. */
export class RetryableJobError extends Error {}

/** `lastTry`: a RetryableJobError thrown now fails the job for good, so write what the reader should see. */
export type JobHandler = (job: JobRow, attempt: { lastTry: boolean }) => Promise<void>;

export interface JobQueueOptions {
  /** Jobs running at once, all users together. */
  concurrency: number;
  /** Jobs of one user running at once, so one large import can't take every slot. */
  perUser: number;
  /** Tries before a retryable failure becomes final. */
  maxAttempts: number;
  /** The first retry waits this long, each further one twice as long. */
  retryBaseMs: number;
  /** How often the queue looks for due jobs when nothing woke it. */
  pollMs: number;
}

export const DEFAULT_JOB_QUEUE_OPTIONS: JobQueueOptions = {
  concurrency: 4,
  perUser: 2,
  maxAttempts: 5,
  retryBaseMs: 5_000,
  pollMs: 1_000,
};

/** The wait before the next try after `attempts` tries: `baseMs`, then twice as long for each further one. */
export function retryWaitMs(baseMs: number, attempts: number): number {
  return baseMs * 2 ** (attempts - 1);
}

/** The jobs of each user running on this node, against the per-user limit (both job runners). */
export class UserSlots {
  private readonly inUse = new Map<string, number>();

  constructor(private readonly perUser: number) {}

  /** Whether the user already runs as many jobs as the limit allows. */
  full(userId: string): boolean {
    return (this.inUse.get(userId) ?? 0) >= this.perUser;
  }

  take(userId: string): void {
    this.inUse.set(userId, (this.inUse.get(userId) ?? 0) + 1);
  }

  release(userId: string): void {
    const left = (this.inUse.get(userId) ?? 1) - 1;
    if (left > 0) this.inUse.set(userId, left);
    else this.inUse.delete(userId);
  }
}

/**
 * A node's per-user slots for both job runners, counted apart for the kinds a request waits for
 * (HandleOptions: a save, a screenshot's reading) and for background kinds (image archiving, an import),
 * each against the per-user limit: a save never waits behind its user's background jobs, and one user's
 * saves still leave the other slots to other users.
 */
export class JobSlots {
  /** The kinds a request waits for. */
  readonly waitedOn = new Set<string>();
  private readonly background: UserSlots;
  private readonly waited: UserSlots;

  constructor(perUser: number) {
    this.background = new UserSlots(perUser);
    this.waited = new UserSlots(perUser);
  }

  /** The slots jobs of this kind take. */
  of(kind: string): UserSlots {
    return this.waitedOn.has(kind) ? this.waited : this.background;
  }
}

/**
 * The oldest due job of each user and kind with queued jobs, read by seeks in jobs_queued_idx (status,
 * user, kind, run_after): the pairs one after another (a recursive walk that skips to the next kind of
 * the user, else the next user), then each pair's oldest due job. A claim reads a few index entries per
 * pair, never every queued job: an import queues ten thousand page fetches of one reader, whose slots are
 * full most of the time, and a claim that sorted every due job (2 ms at 10,000, growing with the queue)
 * ran after each job that ended.
 */
const oldestDueJobs = preparedSelect((db) => {
  const { jobs } = db.tables;
  const next = (column: string) =>
    sql.raw(`COALESCE(
      (SELECT j.${column} FROM jobs j
        WHERE j.status = 'queued' AND j.user_id = p.user_id AND j.kind > p.kind ORDER BY j.kind LIMIT 1),
      (SELECT j.${column} FROM jobs j
        WHERE j.status = 'queued' AND j.user_id > p.user_id ORDER BY j.user_id, j.kind LIMIT 1))`);
  return {
    selection: { ...jobSelection(db), run_after: jobs.runAfter },
    rest: sql`FROM (
        WITH RECURSIVE pairs(user_id, kind) AS (
          SELECT head.user_id, head.kind FROM (
            SELECT q.user_id, q.kind FROM jobs q WHERE q.status = 'queued' ORDER BY q.user_id, q.kind LIMIT 1
          ) head
          UNION ALL
          SELECT ${next('user_id')}, ${next('kind')} FROM pairs p WHERE p.user_id IS NOT NULL
        )
        SELECT user_id, kind FROM pairs WHERE user_id IS NOT NULL
      ) pair
      JOIN jobs ON jobs.id = (
        SELECT o.id FROM jobs o
        WHERE o.status = 'queued' AND o.user_id = pair.user_id AND o.kind = pair.kind
          AND o.run_after <= ${sql.placeholder('now')}
        ORDER BY o.run_after, o.id LIMIT 1
      )`,
  };
});

/** A user's and kind's oldest due job, and whether a request waits for its kind. */
interface DueJob {
  job: JobRow;
  runAfter: string;
  waited: boolean;
}

/** Jobs a request waits for first, then the oldest due, then the first queued. */
function comesFirst(due: DueJob, than: DueJob): boolean {
  if (due.waited !== than.waited) return due.waited;
  if (due.runAfter !== than.runAfter) return due.runAfter < than.runAfter;
  return due.job.id < than.job.id;
}

/** A job to queue: its kind and key (once per pair), its user, and what it is given. */
export interface JobToQueue {
  kind: string;
  key: string;
  userId: string;
  groupId?: string;
  payload?: unknown;
}

/** Queues a job once: the same kind and key again is ignored (a replayed import never fetches twice). */
export async function enqueueJob(db: Queryable, job: JobToQueue): Promise<void> {
  await enqueueJobs(db, [job]);
}

/** enqueueJob for many jobs at once (an import's batch of page fetches), a few hundred a statement. */
export async function enqueueJobs(db: Queryable, queued: readonly JobToQueue[]): Promise<void> {
  const at = nowIso();
  const { jobs } = db.tables;
  // Ten values a job: the nine below and its id.
  for (const slice of statementSlices(queued, 10)) {
    await db.orm
      .insert(jobs)
      .values(
        slice.map((job) => ({
          kind: job.kind,
          key: job.key,
          userId: job.userId,
          groupId: job.groupId ?? null,
          payload: JSON.stringify(job.payload ?? {}),
          status: 'queued' as const,
          attempts: 0,
          runAfter: at,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflictDoNothing({ target: [jobs.kind, jobs.key] });
  }
}

/** Queues a job that ran before (done or failed) again, as Retry does. */
export async function requeueJob(db: Queryable, kind: string, key: string): Promise<void> {
  const at = nowIso();
  const { jobs } = db.tables;
  await db.orm
    .update(jobs)
    .set({ status: 'queued', attempts: 0, runAfter: at, lastError: null, updatedAt: at })
    .where(and(eq(jobs.kind, kind), eq(jobs.key, key), inArray(jobs.status, ['done', 'failed'])));
}

/** The job runner on SQLite: one process owns the database, so its jobs run in that process. */
export class JobQueue implements JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly afterJobHooks: ((job: JobRow) => void | Promise<void>)[] = [];
  private readonly running = new Map<number, Promise<void>>();
  /** Each user's jobs running here; the kinds a request waits for are taken before the others. */
  private readonly slots: JobSlots;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private pumping = false;
  private pumpAgain = false;
  /** The claiming under way, which stop() waits for so that no job starts after it. */
  private pumped: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly options: JobQueueOptions = DEFAULT_JOB_QUEUE_OPTIONS,
  ) {
    this.slots = new JobSlots(options.perUser);
  }

  handle(kind: string, handler: JobHandler, options: HandleOptions = {}): void {
    this.handlers.set(kind, handler);
    if (options.waitedOn) this.slots.waitedOn.add(kind);
  }

  /** Called after each job ends (done, failed, or queued again for a retry). */
  afterEachJob(hook: (job: JobRow) => void | Promise<void>): void {
    this.afterJobHooks.push(hook);
  }

  async enqueue(db: Queryable, job: NewJob): Promise<void> {
    await enqueueJob(db, job);
  }

  async requeue(db: Queryable, kind: string, key: string): Promise<void> {
    await requeueJob(db, kind, key);
  }

  /** Starts working; jobs a stopped or crashed process left running are taken up again. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.db.run(
      sql`UPDATE jobs SET status = 'queued', updated_at = ${nowIso()} WHERE status = 'running'`,
    );
    this.wake();
  }

  /** Stops claiming; waits for the jobs in hand (their effects are written, or they run again on start). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pumped;
    await Promise.allSettled([...this.running.values()]);
  }

  /** Looks for due jobs now (after an enqueue) rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    setImmediate(() => this.pump());
  }

  /** Resolves once no job is queued or running (tests and benchmarks). */
  async idle(): Promise<void> {
    for (;;) {
      const { jobs } = this.db.tables;
      const [open] = await this.db.orm
        .select({ n: count() })
        .from(jobs)
        .where(inArray(jobs.status, ['queued', 'running']));
      if (open?.n === 0 && this.running.size === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private pump(): void {
    if (this.stopped) return;
    if (this.pumping) {
      // Claiming is async now: a job that ended meanwhile may have freed a slot, so look again after.
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.pumpAgain = false;
    this.pumped = this.claimDueJobs().finally(() => {
      this.pumping = false;
      if (this.timer) clearTimeout(this.timer);
      if (this.pumpAgain) return this.pump();
      this.timer = setTimeout(() => this.pump(), this.options.pollMs);
      this.timer.unref();
    });
  }

  /** Claims and starts due jobs while there are free slots. */
  private async claimDueJobs(): Promise<void> {
    try {
      while (!this.stopped && this.running.size < this.options.concurrency) {
        const job = await this.claim();
        if (!job) break;
        this.runJob(job);
      }
    } catch {
      // The database refused (closing, busy): the next poll tries again.
    }
  }

  /**
   * The oldest due job of a user below the per-user limit of its kind's slots (jobs a request waits for
   * first), marked running in the same transaction.
   */
  private async claim(): Promise<JobRow | null> {
    return await this.db.transaction(async (tx) => {
      let best: DueJob | null = null;
      for (const { run_after: runAfter, ...job } of await oldestDueJobs(tx, { now: nowIso() })) {
        if (this.slots.of(job.kind).full(job.user_id)) continue;
        const due = { job, runAfter, waited: this.slots.waitedOn.has(job.kind) };
        if (best === null || comesFirst(due, best)) best = due;
      }
      if (!best) return null;
      const { jobs } = tx.tables;
      await tx.orm
        .update(jobs)
        .set({ status: 'running', attempts: sql`${jobs.attempts} + 1`, updatedAt: nowIso() })
        .where(eq(jobs.id, best.job.id));
      return { ...best.job, attempts: best.job.attempts + 1 };
    });
  }

  private runJob(job: JobRow): void {
    const slots = this.slots.of(job.kind);
    slots.take(job.user_id);
    // The hooks are part of the job's work: stop() waits for them, so none reaches a database the server
    // has closed meanwhile (on PostgreSQL it would wait for a connection of an ended pool).
    const work = this.execute(job).finally(async () => {
      for (const hook of this.afterJobHooks) {
        try {
          await hook(job);
        } catch {
          // A hook's failure must not stop the queue; the next job's hook tries again.
        }
      }
      this.running.delete(job.id);
      slots.release(job.user_id);
      this.wake();
    });
    this.running.set(job.id, work);
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}`);
      await handler(job, { lastTry: job.attempts >= this.options.maxAttempts });
      await this.finish(job.id, 'done', null);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (this.stopped) {
        // Interrupted by a shutdown: it runs again on the next start.
        await this.db.run(
          sql`UPDATE jobs SET status = 'queued', updated_at = ${nowIso()} WHERE id = ${job.id}`,
        );
        return;
      }
      if (error instanceof RetryableJobError && job.attempts < this.options.maxAttempts) {
        const wait = retryWaitMs(this.options.retryBaseMs, job.attempts);
        await this.db.run(
          sql`UPDATE jobs SET status = 'queued', run_after = ${new Date(Date.now() + wait).toISOString()}, last_error = ${message}, updated_at = ${nowIso()} WHERE id = ${job.id}`,
        );
        return;
      }
      await this.finish(job.id, 'failed', message);
    }
  }

  private async finish(id: number, status: JobStatus, error: string | null): Promise<void> {
    await this.db.run(
      sql`UPDATE jobs SET status = ${status}, last_error = ${error}, updated_at = ${nowIso()} WHERE id = ${id}`,
    );
  }
}
