// Background work that outlives a request and a restart: jobs persisted in SQLite, claimed a few at a time
// per user and a bounded number in all, retried with backoff when a failure may pass, each done once.
import { nowIso } from '@lectern/shared-schema';
import type { Db } from '../db/connection';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobRow {
  id: number;
  kind: string;
  key: string;
  user_id: string;
  group_id: string | null;
  payload: string;
  attempts: number;
}

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

  /** The users at the limit. */
  fullUsers(): string[] {
    return [...this.inUse.keys()].filter((userId) => this.full(userId));
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

/** Queues a job once: the same kind and key again is ignored (a replayed import never fetches twice). */
export function enqueueJob(
  db: Db,
  job: { kind: string; key: string; userId: string; groupId?: string; payload?: unknown },
): void {
  const at = nowIso();
  db.statement(
    `INSERT INTO jobs (kind, key, user_id, group_id, payload, status, attempts, run_after, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?) ON CONFLICT (kind, key) DO NOTHING`,
  ).run(job.kind, job.key, job.userId, job.groupId ?? null, JSON.stringify(job.payload ?? {}), at, at, at);
}

/** Queues a job that ran before (done or failed) again, as Retry does. */
export function requeueJob(db: Db, kind: string, key: string): void {
  const at = nowIso();
  db.statement(
    `UPDATE jobs SET status = 'queued', attempts = 0, run_after = ?, last_error = NULL, updated_at = ?
      WHERE kind = ? AND key = ? AND status IN ('done', 'failed')`,
  ).run(at, at, kind, key);
}

export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly afterJobHooks: ((job: JobRow) => void)[] = [];
  private readonly running = new Map<number, Promise<void>>();
  private readonly slots: UserSlots;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private pumping = false;

  constructor(
    private readonly db: Db,
    private readonly options: JobQueueOptions = DEFAULT_JOB_QUEUE_OPTIONS,
  ) {
    this.slots = new UserSlots(options.perUser);
  }

  handle(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Called after each job ends (done, failed, or queued again for a retry). */
  afterEachJob(hook: (job: JobRow) => void): void {
    this.afterJobHooks.push(hook);
  }

  /** Starts working; jobs a stopped or crashed process left running are taken up again. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.db
      .statement(`UPDATE jobs SET status = 'queued', updated_at = ? WHERE status = 'running'`)
      .run(nowIso());
    this.wake();
  }

  /** Stops claiming; waits for the jobs in hand (their effects are written, or they run again on start). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
      const open = this.db
        .statement(`SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')`)
        .get() as { n: number };
      if (open.n === 0 && this.running.size === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private pump(): void {
    if (this.stopped || this.pumping) return;
    this.pumping = true;
    try {
      while (this.running.size < this.options.concurrency) {
        const job = this.claim();
        if (!job) break;
        this.runJob(job);
      }
    } finally {
      this.pumping = false;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pump(), this.options.pollMs);
    this.timer.unref();
  }

  /** The oldest due job of a user below the per-user limit, marked running in the same transaction. */
  private claim(): JobRow | null {
    const busyUsers = this.slots.fullUsers();
    return this.db.transaction(() => {
      const job = this.db
        .statement(
          `SELECT id, kind, key, user_id, group_id, payload, attempts FROM jobs
            WHERE status = 'queued' AND run_after <= ?
              AND user_id NOT IN (SELECT value FROM json_each(?))
            ORDER BY run_after, id LIMIT 1`,
        )
        .get(nowIso(), JSON.stringify(busyUsers)) as JobRow | undefined;
      if (!job) return null;
      this.db
        .statement(`UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ? WHERE id = ?`)
        .run(nowIso(), job.id);
      return { ...job, attempts: job.attempts + 1 };
    });
  }

  private runJob(job: JobRow): void {
    this.slots.take(job.user_id);
    const work = this.execute(job).finally(() => {
      this.running.delete(job.id);
      for (const hook of this.afterJobHooks) {
        try {
          hook(job);
        } catch {
          // A hook's failure must not stop the queue; the next job's hook tries again.
        }
      }
      this.slots.release(job.user_id);
      this.wake();
    });
    this.running.set(job.id, work);
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}`);
      await handler(job, { lastTry: job.attempts >= this.options.maxAttempts });
      this.finish(job.id, 'done', null);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (this.stopped) {
        // Interrupted by a shutdown: it runs again on the next start.
        this.db
          .statement(`UPDATE jobs SET status = 'queued', updated_at = ? WHERE id = ?`)
          .run(nowIso(), job.id);
        return;
      }
      if (error instanceof RetryableJobError && job.attempts < this.options.maxAttempts) {
        const wait = retryWaitMs(this.options.retryBaseMs, job.attempts);
        this.db
          .statement(
            `UPDATE jobs SET status = 'queued', run_after = ?, last_error = ?, updated_at = ? WHERE id = ?`,
          )
          .run(new Date(Date.now() + wait).toISOString(), message, nowIso(), job.id);
        return;
      }
      this.finish(job.id, 'failed', message);
    }
  }

  private finish(id: number, status: JobStatus, error: string | null): void {
    this.db
      .statement(`UPDATE jobs SET status = ?, last_error = ?, updated_at = ? WHERE id = ?`)
      .run(status, error, nowIso(), id);
  }
}
