// What runs background work (extraction, OCR, image archiving, imports), whichever engine holds the data:
// on SQLite the persisted queue in the same process (jobs/job-queue.ts), on PostgreSQL pg-boss
// (jobs/pg-boss-runner.ts), which any node can take a job from. The server sees only this (ctx.jobs, picked
// by nodes/node-wiring.ts from the database's engine).
//
// Both engines keep the `jobs` table as the record of every job (queued, running, done, failed; an
// import's progress is counted from it) and as its once-only gate: (kind, key) is unique, so queuing the
// same work again is ignored, and a job's writes are keyed by the job (its key), so the rare second run
// (a node that died after the effect, before marking the job done) changes nothing.
import type { Queryable } from '../db/database';
import type { JobHandler, JobQueueOptions, JobRow } from './job-queue';

/** A job to queue: `kind` picks the handler, `key` makes it unique within the kind. */
export interface NewJob {
  kind: string;
  key: string;
  userId: string;
  /** What the job serves (an import), whose progress is counted from its jobs. */
  groupId?: string;
  payload?: unknown;
}

export interface HandleOptions {
  /**
   * A request waits for jobs of this kind (a save by URL): they are taken before the others due, so a
   * save never waits behind an import's hundreds of pages. pg-boss keeps a queue per kind and this node
   * takes the kinds in turn, which gives the same.
   */
  waitedOn?: boolean;
}

export interface JobRunner {
  /**
   * Queues a job once: the same kind and key again is ignored. Call it inside the transaction that makes
   * the work needed (on `tx`), so the job exists exactly when that work does.
   */
  enqueue(db: Queryable, job: NewJob): Promise<void>;
  /** Queues a job that ran before (done or failed) again, as Retry does; a queued or running one is left. */
  requeue(db: Queryable, kind: string, key: string): Promise<void>;
  /**
   * The handler of one kind. It may throw RetryableJobError for a failure worth another try later (retried
   * with backoff); with `lastTry` set, such a failure is final, so it writes what the reader should see.
   */
  handle(kind: string, handler: JobHandler, options?: HandleOptions): void;
  /** Looks for due jobs now (after a commit that queued some) rather than at the next poll. */
  wake(): void;
  /** Starts taking jobs (a node with ROLE=web doesn't call it: it only queues). */
  start(): Promise<void>;
  /** Stops taking jobs and waits for the ones in hand; what it can't finish another node (or start) takes. */
  stop(): Promise<void>;
  /** Called on this node after each job it ran ends (done, failed, or queued again for a retry). */
  afterEachJob(hook: (job: JobRow) => void | Promise<void>): void;
  /** Resolves once no job is queued or running, on any node (tests and benchmarks). */
  idle(): Promise<void>;
}

/**
 * How many jobs a node runs at once (JOB_CONCURRENCY, JOB_CONCURRENCY_PER_USER) and how it retries: the
 * SQLite queue's own limits, so both engines read them alike.
 */
export type JobRunnerLimits = Omit<JobQueueOptions, 'pollMs'>;

/** The error of a job whose every try expired (its node lost, or each try past JOB_EXPIRE_SECONDS). */
export const LOST_JOB =
  'Every try of this job ended without an answer (its node was lost, or it ran too long)';
