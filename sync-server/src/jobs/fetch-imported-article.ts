// The page of an imported row, fetched and extracted with the same safe fetch and extraction as a save.
// A failure that may pass (a timeout, an unreachable host, a 5xx) is tried again with backoff; any other
// failure, or the last try, leaves the article with the reason and a Retry, like a refused save.
import { and, eq, sql } from 'drizzle-orm';
import { FETCH_FAILURES } from '../extraction/errors';
import type { ExtractedArticle } from '../extraction/index';
import { nowIso } from '../services/change-log';
import { laterOf } from '../db/sql-functions';
import type { ServiceContext } from '../services/context';
import { hasRemoteImages, queueImageArchive } from '../services/image-archive';
import { RetryableJobError, type JobHandler } from './job-queue';

function isTransient(error: unknown): boolean {
  if (error instanceof Error && error.name === 'ExtractionBusyError') return true; // other pages' turn
  if (!(error instanceof Error) || error.name !== 'FetchFailedError') return false;
  const message = error.message;
  return (
    message === FETCH_FAILURES.timeout ||
    message.startsWith(FETCH_FAILURES.unreachable('').slice(0, -2)) ||
    /HTTP status (429|5\d\d)$/.test(message)
  );
}

/** The extracted page replaces the placeholder; the title the reader's file gave is kept. */
async function applyPage(
  ctx: ServiceContext,
  userId: string,
  articleId: string,
  page: ExtractedArticle,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const { articles } = tx.tables;
    const [row] = await tx.orm
      .select({ title: articles.title, url: articles.url, image_url: articles.imageUrl })
      .from(articles)
      .where(and(eq(articles.id, articleId), eq(articles.userId, userId)));
    if (!row) return;
    const titleFromFile = row.title !== row.url;
    const imagesPending = hasRemoteImages({
      image_url: row.image_url ?? page.image_url,
      content: page.content,
    });
    // What the reader's file gave (description, author, image, excerpt) is kept; the page fills the rest.
    await tx.orm
      .update(articles)
      .set({
        title: titleFromFile ? row.title : page.title,
        description: sql`coalesce(${articles.description}, ${page.description})`,
        author: sql`coalesce(${articles.author}, ${page.author})`,
        imageUrl: sql`coalesce(${articles.imageUrl}, ${page.image_url})`,
        excerpt: sql`coalesce(${articles.excerpt}, ${page.excerpt})`,
        publishedDate: page.published_date,
        siteName: page.site_name,
        language: page.language,
        readingTime: page.reading_time,
        content: page.content,
        contentText: page.content_text,
        fetchState: null,
        fetchError: null,
        imagesPending,
        updatedAt: laterOf(tx, articles.updatedAt, nowIso()),
      })
      .where(eq(articles.id, articleId));
    // The page's images are archived like a save's (services/image-archive.ts).
    if (imagesPending) await queueImageArchive(tx, userId, articleId);
  });
}

async function markFailed(ctx: ServiceContext, userId: string, articleId: string, reason: string) {
  await ctx.db.transaction(async (tx) => {
    const { articles } = tx.tables;
    await tx.orm
      .update(articles)
      .set({ fetchState: 'failed', fetchError: reason })
      .where(and(eq(articles.id, articleId), eq(articles.userId, userId)));
  });
}

export function fetchImportedArticle(ctx: ServiceContext): JobHandler {
  return async (job, { lastTry }) => {
    const { articleId } = JSON.parse(job.payload) as { articleId: string };
    const { articles } = ctx.db.tables;
    const [article] = await ctx.db.orm
      .select({ user_id: articles.userId, url: articles.url, fetch_state: articles.fetchState })
      .from(articles)
      .where(eq(articles.id, articleId));
    // Deleted meanwhile, or already whole (a job run again after a restart): nothing to do.
    if (!article || article.user_id !== job.user_id || article.fetch_state !== 'pending') return;
    try {
      const page = await ctx.extraction.fetchArticle(
        article.url,
        { allowedOrigins: ctx.config.fetchAllowedOrigins },
        job.user_id,
      );
      await applyPage(ctx, job.user_id, articleId, page.article);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (isTransient(error) && !lastTry) throw new RetryableJobError(reason);
      await markFailed(ctx, job.user_id, articleId, reason);
      throw error;
    }
  };
}
