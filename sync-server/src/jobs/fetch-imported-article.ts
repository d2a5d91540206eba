// The page of an imported row, fetched and extracted with the same safe fetch and extraction as a save.
// A failure that may pass (a timeout, an unreachable host, a 5xx) is tried again with backoff; any other
// failure, or the last try, leaves the article with the reason and a Retry, like a refused save.
import { FETCH_FAILURES } from '../extraction/errors';
import type { ExtractedArticle } from '../extraction/index';
import { nowIso } from '../services/change-log';
import type { ServiceContext } from '../services/context';
import { hasRemoteImages, queueImageArchive } from '../services/image-archive';
import { RetryableJobError, type JobHandler } from './job-queue';
import { sql } from 'drizzle-orm';

interface PendingArticle {
  user_id: string;
  url: string;
  title: string;
  fetch_state: string | null;
}

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
    const row = (await tx.get(
      sql`SELECT title, url, image_url FROM articles WHERE id = ${articleId} AND user_id = ${userId}`,
    )) as { title: string; url: string; image_url: string | null } | undefined;
    if (!row) return;
    const titleFromFile = row.title !== row.url;
    const imagesPending = hasRemoteImages({
      image_url: row.image_url ?? page.image_url,
      content: page.content,
    });
    await tx.run(sql`UPDATE articles SET title = ${titleFromFile ? row.title : page.title}, description = coalesce(description, ${page.description}), author = coalesce(author, ${page.author}),
           image_url = coalesce(image_url, ${page.image_url}), excerpt = coalesce(excerpt, ${page.excerpt}), published_date = ${page.published_date}, site_name = ${page.site_name},
           language = ${page.language}, reading_time = ${page.reading_time}, content = ${page.content}, content_text = ${page.content_text}, fetch_state = NULL, fetch_error = NULL,
           images_pending = ${imagesPending ? 1 : 0}, updated_at = max(updated_at, ${nowIso()})
         WHERE id = ${articleId}`);
    // The page's images are archived like a save's (services/image-archive.ts).
    if (imagesPending) await queueImageArchive(tx, userId, articleId);
  });
}

async function markFailed(ctx: ServiceContext, userId: string, articleId: string, reason: string) {
  await ctx.db.transaction(async (tx) => {
    await tx.run(
      sql`UPDATE articles SET fetch_state = 'failed', fetch_error = ${reason} WHERE id = ${articleId} AND user_id = ${userId}`,
    );
  });
}

export function fetchImportedArticle(ctx: ServiceContext): JobHandler {
  return async (job, { lastTry }) => {
    const { articleId } = JSON.parse(job.payload) as { articleId: string };
    const article = (await ctx.db.get(
      sql`SELECT user_id, url, title, fetch_state FROM articles WHERE id = ${articleId}`,
    )) as PendingArticle | undefined;
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
