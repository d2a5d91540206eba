// A save by URL as a job (jobs/awaited-jobs.ts): the request queues the fetch and extraction of the page
// (or of the page sent with the save) and the writing of the article, keyed by the user and the article's
// id, and answers what the job wrote.
import { extractGivenPage } from '../extraction/index';
import { queueAndAwait, writeOutcome, type SavedOutcome } from '../jobs/awaited-jobs';
import { refusalOf } from './refusals';
import type { JobHandler } from '../jobs/job-queue';
import { addressesOfSave, findReplayedArticle, insertArticle } from './articles';
import type { ServiceContext } from './context';

export const SAVE_ARTICLE_JOB = 'save-article';

interface SavePayload {
  articleId: string;
  url: string;
  tags: string[];
  /** The page sent with the save (bookmarklet, extension), extracted instead of fetched. */
  html?: string;
}

/** Queues the save's job and waits for it: the article, or the refusal it came to. */
export function saveThroughJob(
  ctx: ServiceContext,
  userId: string,
  save: SavePayload,
): Promise<SavedOutcome> {
  return queueAndAwait(ctx, {
    kind: SAVE_ARTICLE_JOB,
    key: `${userId}/${save.articleId}`,
    userId,
    payload: save,
  });
}

/**
 * The job: fetches the page (or extracts the one sent) outside any transaction, then writes the article
 * and the job's outcome in one, so the outcome is there exactly when the article is.
 */
export function saveArticleJob(ctx: ServiceContext): JobHandler {
  return async (job) => {
    const { outcome: _earlier, ...save } = JSON.parse(job.payload) as SavePayload & { outcome?: unknown };
    const userId = job.user_id;
    // Run again after its article was written (its node died before marking it done): answer that article
    // without fetching the page again.
    const written = await findReplayedArticle(ctx.db, userId, save.articleId);
    if (written) {
      await ctx.db.transaction((tx) =>
        writeOutcome(tx, job.id, { ...save, html: undefined }, { article: written, alreadySaved: false }),
      );
      return;
    }
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
