// Jobs a request waits for (issue 15): a save by URL and a screenshot's OCR run as jobs any node that runs
// jobs can take, while the request that queued one waits for it to end and answers what it came to, as the
// spec's POST /articles and POST /articles/screenshot answer the article. On SQLite the job runs in this
// process; on PostgreSQL any worker node runs it, and if that node dies another takes it up.
//
// What a job came to, the article or the refusal the reader is to see, is written to its row's payload
// (`outcome`) in the same transaction as its effect, where the waiting request, on whichever node, reads
// it. A job's effect is keyed by the article's id (insertArticle answers an article already written under
// it), so a job run twice writes its article once.
//
// The waiting request looks at the row when it has reason to: when a job ends on this node (the runner's
// afterEachJob), when the user's feed moves on any node (an article written: the feed signal, LISTEN/NOTIFY
// between nodes), and otherwise every FALLBACK_POLL_MS, for a refusal written on another node. It used to
// read the row every 25 ms: a hundred saves waiting were 4,000 queries a second.
import { SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import type { JobRunner } from './job-runner';
import type { ServiceContext } from '../services/context';
import { HttpError } from '../services/errors';
import type { Refusal } from '../services/refusals';
import { LOST_JOB } from './job-runner';

/** How long a request waits for its job before answering "busy" (the job still ends; a retry answers it). */
export const AWAITED_JOB_WAIT_MS = 120_000;
/** How often a waiting request looks at its job's row when nothing has told it to. */
const FALLBACK_POLL_MS = 250;

/** Requests waiting on this node, by runner and job (`kind:key`): woken when a job of theirs ends here. */
const waiting = new WeakMap<JobRunner, Map<string, Set<() => void>>>();

function waitersOf(jobs: JobRunner): Map<string, Set<() => void>> {
  let byJob = waiting.get(jobs);
  if (!byJob) {
    const created = new Map<string, Set<() => void>>();
    jobs.afterEachJob((job) => {
      for (const wake of created.get(`${job.kind}:${job.key}`) ?? []) wake();
    });
    waiting.set(jobs, created);
    byJob = created;
  }
  return byJob;
}

/** The article the job wrote (as its transaction wrote it: read later, its images may be archived). */
export interface SavedOutcome {
  article: Article;
  alreadySaved: boolean;
}

type Outcome = SavedOutcome | Refusal;

/** What a waiting request needs: the database, the job runner, and the feed signal that says a user's feed moved. */
type AwaitingContext = Pick<ServiceContext, 'db' | 'jobs'> & {
  live: Pick<ServiceContext['live'], 'signals'>;
};

/**
 * Queues the job (again, if an earlier one under this key ended without an article: a retry fetches or
 * reads anew) and waits for it to end; answers the article or throws the refusal.
 */
export async function queueAndAwait(
  ctx: AwaitingContext,
  job: { kind: string; key: string; userId: string; payload: object },
): Promise<SavedOutcome> {
  await ctx.db.transaction(async (tx) => {
    // An ended job runs again with this request's payload (the page sent now, the tags given now).
    const { jobs } = tx.tables;
    await tx.orm
      .update(jobs)
      .set({ payload: JSON.stringify(job.payload) })
      .where(and(eq(jobs.kind, job.kind), eq(jobs.key, job.key), inArray(jobs.status, ['done', 'failed'])));
    await ctx.jobs.requeue(tx, job.kind, job.key);
    await ctx.jobs.enqueue(tx, job);
  });
  ctx.jobs.wake();
  const outcome = await outcomeOf(ctx, job);
  if ('status' in outcome) throw new HttpError(outcome.status, outcome.error, outcome.headers);
  return outcome;
}

async function outcomeOf(
  ctx: AwaitingContext,
  { kind, key, userId }: { kind: string; key: string; userId: string },
): Promise<Outcome> {
  const { jobs } = ctx.db.tables;
  const until = Date.now() + AWAITED_JOB_WAIT_MS;
  let woken: () => void = () => {};
  // Counts the calls to look again; one made while the row was being read is not lost.
  const told = { times: 0 };
  const wake = () => {
    told.times += 1;
    woken();
  };
  const byJob = waitersOf(ctx.jobs);
  const jobKey = `${kind}:${key}`;
  const waiters = byJob.get(jobKey) ?? new Set<() => void>();
  byJob.set(jobKey, waiters);
  waiters.add(wake);
  const unsubscribe = ctx.live.signals.subscribe(userId, wake);
  try {
    for (;;) {
      const seen = told.times;
      const [row] = await ctx.db.orm
        .select({ status: jobs.status, payload: jobs.payload, lastError: jobs.lastError })
        .from(jobs)
        .where(and(eq(jobs.kind, kind), eq(jobs.key, key)));
      if (row?.status === 'done') {
        const { outcome } = JSON.parse(row.payload) as { outcome?: Outcome };
        if (outcome) return outcome;
      }
      // Every try expired (nodes lost, or too slow each time): busy, try again, rather than a fault.
      if (row?.status === 'failed' && row.lastError === LOST_JOB)
        throw new HttpError(503, SERVER_ERRORS.serverBusy, { 'retry-after': '30' });
      // A job that failed outright (a bug, not a page or image that can't be saved) is the server's fault.
      if (!row || row.status === 'failed') throw new Error(`The job ${kind} ${key} ended without an outcome`);
      if (Date.now() > until) throw new HttpError(503, SERVER_ERRORS.serverBusy, { 'retry-after': '30' });
      // Told while the row was being read: look again at once.
      if (told.times !== seen) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, FALLBACK_POLL_MS);
        woken = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      woken = () => {};
    }
  } finally {
    unsubscribe();
    waiters.delete(wake);
    if (waiters.size === 0) byJob.delete(jobKey);
  }
}

/** Writes what the job came to into its row, inside the transaction of its effect (or alone, a refusal). */
export async function writeOutcome(
  tx: Queryable,
  jobId: number,
  payload: object,
  outcome: Outcome,
): Promise<void> {
  const { jobs } = tx.tables;
  await tx.orm
    .update(jobs)
    .set({ payload: JSON.stringify({ ...payload, outcome }) })
    .where(eq(jobs.id, jobId));
}
