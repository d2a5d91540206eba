// A save by URL runs as a job (issue 15): the request queues the fetch and extraction of the page and the
// writing of the article, and any node that runs jobs takes it; the request waits for the job to end and
// answers what it wrote, since POST /articles answers the article (spec section 7). On SQLite the job runs
// in this process; on PostgreSQL any worker node runs it, and if that node dies another one takes it up.
//
// The job is keyed by the user and the article's id (the client's, or one the request picks), and its
// effect is keyed by that id too: insertArticle answers an article already written under the id, so a job
// run twice (its node died after writing, before the job was marked done) writes the article once. What
// the job came to, the article or the refusal the reader is to see, is kept in its row's payload
// (`outcome`), where the waiting request, on whichever node, reads it.
import { SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { and, eq } from 'drizzle-orm';
import {
  ExtractionBusyError,
  extractGivenPage,
  FetchFailedError,
  FetchRefusedError,
} from '../extraction/index';
import type { Queryable } from '../db/database';
import type { JobHandler } from '../jobs/job-queue';
import { addressesOfSave, insertArticle, type SavedArticle } from './articles';
import type { ServiceContext } from './context';
import { HttpError } from './errors';

export const SAVE_ARTICLE_JOB = 'save-article';

/** How long a save waits for its job before answering "busy" (the job still ends, and a retry answers it). */
export const SAVE_JOB_WAIT_MS = 120_000;
/** How often a waiting save looks at its job's row. */
const SAVE_JOB_POLL_MS = 25;

interface SavePayload {
  articleId: string;
  url: string;
  tags: string[];
  /** The page sent with the save (bookmarklet, extension), extracted instead of fetched. */
  html?: string;
  outcome?: SaveOutcome;
}

/**
 * What the job came to: the article as its transaction wrote it (new, or the one already kept at that
 * address; read later, its images may already be archived), or a refusal.
 */
type SaveOutcome =
  | { article: Article; alreadySaved: boolean }
  | { status: number; error: string; headers: Record<string, string> };

/** The refusal an extraction error stands for, as the error handler answers it in a request. */
function refusalOf(error: unknown): SaveOutcome | null {
  if (error instanceof HttpError)
    return { status: error.statusCode, error: error.message, headers: error.headers };
  if (error instanceof ExtractionBusyError)
    return { status: 429, error: SERVER_ERRORS.serverBusy, headers: { 'retry-after': '30' } };
  if (error instanceof FetchRefusedError) return { status: 400, error: error.message, headers: {} };
  if (error instanceof FetchFailedError) return { status: 404, error: error.message, headers: {} };
  return null;
}

const jobKey = (userId: string, articleId: string) => `${userId}/${articleId}`;

/**
 * Queues the save's job (again, if an earlier one under this id ended without an article: a retry of a save
 * that failed fetches anew) and waits for it to end; answers the article or throws the refusal.
 */
export async function saveThroughJob(
  ctx: ServiceContext,
  userId: string,
  save: Omit<SavePayload, 'outcome'>,
): Promise<SavedArticle> {
  const key = jobKey(userId, save.articleId);
  await ctx.db.transaction(async (tx) => {
    await ctx.jobs.requeue(tx, SAVE_ARTICLE_JOB, key);
    await ctx.jobs.enqueue(tx, { kind: SAVE_ARTICLE_JOB, key, userId, payload: save });
  });
  ctx.jobs.wake();
  const outcome = await outcomeOf(ctx, key);
  if ('status' in outcome) throw new HttpError(outcome.status, outcome.error, outcome.headers);
  return outcome;
}

/** Waits for the job to end and reads what it came to. */
async function outcomeOf(ctx: ServiceContext, key: string): Promise<SaveOutcome> {
  const { jobs } = ctx.db.tables;
  const until = Date.now() + SAVE_JOB_WAIT_MS;
  for (;;) {
    const [row] = await ctx.db.orm
      .select({ status: jobs.status, payload: jobs.payload })
      .from(jobs)
      .where(and(eq(jobs.kind, SAVE_ARTICLE_JOB), eq(jobs.key, key)));
    if (row?.status === 'done') {
      const { outcome } = JSON.parse(row.payload) as SavePayload;
      if (outcome) return outcome;
    }
    // A job that failed outright (a bug, not a page that can't be saved) is the server's fault.
    if (!row || row.status === 'failed') throw new Error(`The save's job ended without an outcome (${key})`);
    if (Date.now() > until) throw new HttpError(503, SERVER_ERRORS.serverBusy, { 'retry-after': '30' });
    await new Promise((resolve) => setTimeout(resolve, SAVE_JOB_POLL_MS));
  }
}

/**
 * The job: fetches the page (or extracts the one sent) outside any transaction, then writes the article
 * and the job's outcome in one, so the outcome is there exactly when the article is.
 */
export function saveArticleJob(ctx: ServiceContext): JobHandler {
  return async (job) => {
    const save = JSON.parse(job.payload) as SavePayload;
    const userId = job.user_id;
    try {
      const { url: pageUrl, article } =
        save.html === undefined
          ? await ctx.extraction.fetchArticle(
              save.url,
              { allowedOrigins: ctx.config.fetchAllowedOrigins },
              userId,
            )
          : { url: save.url, article: await extractGivenPage(save.html, save.url, userId) };
      await ctx.db.transaction(async (tx) => {
        const saved = await insertArticle(
          tx,
          userId,
          { ...article, id: save.articleId, url: pageUrl, article_type: 'web', screenshot_url: null },
          save.tags,
          addressesOfSave(save.url, pageUrl),
        );
        // The page sent is no longer needed: a save under this id now answers the article it wrote.
        await writeOutcome(tx, job.id, { ...save, html: undefined }, saved);
      });
      // Its images are archived by a job of their own, queued with the article: run it now.
      ctx.jobs.wake();
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      await ctx.db.transaction((tx) => writeOutcome(tx, job.id, save, refusal));
    }
  };
}

async function writeOutcome(
  tx: Queryable,
  jobId: number,
  save: SavePayload,
  outcome: SaveOutcome,
): Promise<void> {
  const { jobs } = tx.tables;
  await tx.orm
    .update(jobs)
    .set({ payload: JSON.stringify({ ...save, outcome }) })
    .where(eq(jobs.id, jobId));
}
