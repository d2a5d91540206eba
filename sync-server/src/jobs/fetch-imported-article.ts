// The page of an imported row, fetched and extracted with the same safe fetch and extraction as a save.
// A failure that may pass (a timeout, an unreachable host, a 5xx) is tried again with backoff; any other
// failure, or the last try, leaves the article with the reason and a Retry, like a refused save.
import { FETCH_FAILURES } from '../extraction/errors';
import type { ExtractedArticle } from '../extraction/index';
import { nowIso } from '../services/change-log';
import type { ServiceContext } from '../services/context';
import { hasRemoteImages, queueImageArchive } from '../services/image-archive';
import { RetryableJobError, type JobHandler } from './job-queue';

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
function applyPage(ctx: ServiceContext, userId: string, articleId: string, page: ExtractedArticle) {
  ctx.db.transaction(() => {
    const row = ctx.db
      .statement('SELECT title, url, image_url FROM articles WHERE id = ? AND user_id = ?')
      .get(articleId, userId) as { title: string; url: string; image_url: string | null } | undefined;
    if (!row) return;
    const titleFromFile = row.title !== row.url;
    const imagesPending = hasRemoteImages({
      image_url: row.image_url ?? page.image_url,
      content: page.content,
    });
    ctx.db
      .statement(
        `UPDATE articles SET title = ?, description = coalesce(description, ?), author = coalesce(author, ?),
           image_url = coalesce(image_url, ?), excerpt = coalesce(excerpt, ?), published_date = ?, site_name = ?,
           language = ?, reading_time = ?, content = ?, content_text = ?, fetch_state = NULL, fetch_error = NULL,
           images_pending = ?, updated_at = max(updated_at, ?)
         WHERE id = ?`,
      )
      .run(
        titleFromFile ? row.title : page.title,
        page.description,
        page.author,
        page.image_url,
        page.excerpt,
        page.published_date,
        page.site_name,
        page.language,
        page.reading_time,
        page.content,
        page.content_text,
        imagesPending ? 1 : 0,
        nowIso(),
        articleId,
      );
    // The page's images are archived like a save's (services/image-archive.ts).
    if (imagesPending) queueImageArchive(ctx.db, userId, articleId);
  });
}

function markFailed(ctx: ServiceContext, userId: string, articleId: string, reason: string) {
  ctx.db.transaction(() => {
    ctx.db
      .statement(`UPDATE articles SET fetch_state = 'failed', fetch_error = ? WHERE id = ? AND user_id = ?`)
      .run(reason, articleId, userId);
  });
}

export function fetchImportedArticle(ctx: ServiceContext): JobHandler {
  return async (job, { lastTry }) => {
    const { articleId } = JSON.parse(job.payload) as { articleId: string };
    const article = ctx.db
      .statement('SELECT user_id, url, title, fetch_state FROM articles WHERE id = ?')
      .get(articleId) as PendingArticle | undefined;
    // Deleted meanwhile, or already whole (a job run again after a restart): nothing to do.
    if (!article || article.user_id !== job.user_id || article.fetch_state !== 'pending') return;
    try {
      const page = await ctx.extraction.fetchArticle(
        article.url,
        { allowedOrigins: ctx.config.fetchAllowedOrigins },
        job.user_id,
      );
      applyPage(ctx, job.user_id, articleId, page.article);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (isTransient(error) && !lastTry) throw new RetryableJobError(reason);
      markFailed(ctx, job.user_id, articleId, reason);
      throw error;
    }
  };
}
