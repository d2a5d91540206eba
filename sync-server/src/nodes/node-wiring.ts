// What one server node uses for the work that spans nodes, picked from the database it serves from:
//
// - SQLite (one process owns the file): the feed signal stays in process (live/feed-signals.ts) and the
//   jobs run in the persisted queue of the same process (jobs/job-queue.ts).
// - PostgreSQL (DATABASE_URL, several nodes): the feed signal travels as NOTIFY after each commit to every
//   node LISTENing (live/postgres-feed-signals.ts), and the jobs run on pg-boss (jobs/pg-boss-runner.ts),
//   which any worker node takes them from.
//
// And what the node's ROLE lets it do: `web` answers requests and queues jobs but runs none; `worker` runs
// jobs and answers GET /api/health only (for the proxy's or orchestrator's health check); `both` does both.
import type { Config, NodeRole } from '../config';
import type { Db } from '../db/database';
import { DEFAULT_JOB_QUEUE_OPTIONS, JobQueue } from '../jobs/job-queue';
import type { JobRunner } from '../jobs/job-runner';
import { PgBossJobRunner } from '../jobs/pg-boss-runner';
import { inProcessFeedSignals, type FeedSignals } from '../live/feed-signals';
import { postgresFeedSignals } from '../live/postgres-feed-signals';

type NodeConfig = Pick<
  Config,
  'databaseUrl' | 'jobConcurrency' | 'jobConcurrencyPerUser' | 'jobRetryBaseMs' | 'jobExpireSeconds' | 'role'
>;

/**
 * The feed signal of this node, made before the database opens (the database publishes to it after each
 * commit). On PostgreSQL it listens before it answers: a database it can't reach fails the start.
 */
export async function openFeedSignals(
  config: Pick<Config, 'databaseUrl'>,
  onError?: (error: unknown) => void,
): Promise<FeedSignals> {
  if (config.databaseUrl === null) return inProcessFeedSignals();
  return await postgresFeedSignals(config.databaseUrl, { applicationName: 'lectern-feed-signals', onError });
}

/** The job runner for the engine `db` is on; nothing runs until the caller starts it (see runsJobs). */
export function jobRunnerFor(config: NodeConfig, db: Db, onError?: (error: unknown) => void): JobRunner {
  const limits = {
    ...DEFAULT_JOB_QUEUE_OPTIONS,
    concurrency: config.jobConcurrency,
    perUser: config.jobConcurrencyPerUser,
    retryBaseMs: config.jobRetryBaseMs,
  };
  if (db.dialect === 'sqlite') return new JobQueue(db, limits);
  if (config.databaseUrl === null) throw new Error('A PostgreSQL database without DATABASE_URL');
  return new PgBossJobRunner(db, {
    ...limits,
    url: config.databaseUrl,
    expireInSeconds: config.jobExpireSeconds,
    // Lost jobs are looked for a few times per expiry (every 30 s at most), so a dead node's job is taken
    // up soon after it expires rather than a maintenance interval later.
    maintenanceIntervalSeconds: Math.min(30, Math.max(1, Math.floor(config.jobExpireSeconds / 4))),
    applicationName: 'lectern-jobs',
    onError,
  });
}

/** Whether a node with this role runs background jobs. */
export function runsJobs(role: NodeRole): boolean {
  return role !== 'web';
}

/** Whether a node with this role answers the app's requests (a worker answers GET /api/health only). */
export function servesRequests(role: NodeRole): boolean {
  return role !== 'worker';
}
