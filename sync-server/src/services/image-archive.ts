// Archiving a saved article's images on this server (issue 14). A save stores the article at once with
// images_pending and queues a job (jobs/job-queue.ts: persisted, a bounded number at a time); the job
// fetches the lead image and the body's images with the save's safe fetch, keeps those whose bytes are an
// image we know (archivable-image.ts), and rewrites the article to point at its copies in one transaction,
// which the change feed records. Nothing is fetched inside a transaction.
import {
  ARCHIVED_IMAGE_MAX_BYTES,
  ARCHIVED_IMAGES_MAX_BYTES_PER_ARTICLE,
  ARCHIVED_IMAGES_PER_ARTICLE,
} from '@lectern/shared-schema';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connection';
import { laterOf } from '../db/sql-functions';
import {
  archivableImageOffThread,
  fetchBytes,
  findArticleImagesOffThread,
  rewriteArticleImagesOffThread,
} from '../extraction/index';
import { enqueueJob, requeueJob, RetryableJobError, type JobHandler } from '../jobs/job-queue';
import { FileStoreUnavailableError } from '../storage/index';
import { archivedImageUrl, freeUnusedImages, storeImageFile, type StoredImage } from './archived-images';
import { nowIso } from './change-log';
import type { ServiceContext } from './context';
import { onceForServer } from './server-markers';

export const ARCHIVE_IMAGES_JOB = 'archive-article-images';
/** Images of one article fetched at once. */
const IMAGES_AT_ONCE = 4;
/** The one-time job that queues the articles saved before images were archived. */
export const BACKFILL_MARKER = 'image-archive-backfill';

const isRemote = (address: string | null | undefined): address is string =>
  !!address && /^https?:\/\//i.test(address);

/** Whether a new article has anything to archive (its images_pending at save). */
export function hasRemoteImages(article: { image_url: string | null; content: string | null }): boolean {
  return isRemote(article.image_url) || (article.content?.includes('<img') ?? false);
}

/**
 * Inside the save's transaction: queues the article's archiving (again, if it ran before: an imported
 * article whose page came later). The caller wakes the queue after the commit.
 */
export async function queueImageArchive(db: Queryable, userId: string, articleId: string): Promise<void> {
  await enqueueJob(db, { kind: ARCHIVE_IMAGES_JOB, key: articleId, userId, payload: { articleId } });
  await requeueJob(db, ARCHIVE_IMAGES_JOB, articleId);
}

/**
 * Once per server (a marker row says it ran): every article saved before this change that names an image
 * elsewhere is queued for archiving. The queue runs them a bounded number at a time, after restarts too.
 */
export async function queueImageBackfill(db: Queryable): Promise<void> {
  await onceForServer(db, BACKFILL_MARKER, async (tx, at) => {
    // The payload {"articleId":"…"}, the same bytes on both engines.
    const payload =
      tx.dialect === 'sqlite'
        ? sql`json_object('articleId', id)`
        : sql`'{"articleId":' || to_json(id)::text || '}'`;
    await tx.run(sql`INSERT INTO jobs (kind, key, user_id, group_id, payload, status, attempts, run_after, created_at, updated_at)
       SELECT ${ARCHIVE_IMAGES_JOB}, id, user_id, NULL, ${payload}, 'queued', 0, ${at}, ${at}, ${at}
         FROM articles
        WHERE article_type = 'web' AND (image_url LIKE 'http%' OR content LIKE '%<img%')
       ON CONFLICT (kind, key) DO NOTHING`);
  });
}

interface FetchedImage extends StoredImage {
  data: Buffer;
}

/**
 * Fetches and stores the images at these addresses, a few at a time, within the per-image and per-article
 * byte caps; an address that fails (refused, unreachable, too large, not an image) is left out.
 */
async function archiveImages(
  ctx: ServiceContext,
  userId: string,
  addresses: readonly string[],
): Promise<Map<string, FetchedImage>> {
  const archived = new Map<string, FetchedImage>();
  let budget = ARCHIVED_IMAGES_MAX_BYTES_PER_ARTICLE;
  let next = 0;
  let storeDown: unknown = null;
  const worker = async () => {
    while (next < addresses.length && budget > 0 && !storeDown) {
      const address = addresses[next++]!;
      try {
        const bytes = await fetchBytes(address, {
          allowedOrigins: ctx.config.fetchAllowedOrigins,
          timeoutMs: ctx.config.imageFetchTimeoutMs,
          maxBytes: Math.min(ARCHIVED_IMAGE_MAX_BYTES, budget),
        });
        if (bytes.length > budget) continue; // others fetched at the same time took the rest
        budget -= bytes.length;
        const image = await archivableImageOffThread(bytes, userId);
        if (!image) continue;
        archived.set(address, {
          ...(await storeImageFile(ctx.files, image.bytes, image.ext)),
          data: image.bytes,
        });
      } catch (error) {
        // The file store (S3) is down: the whole article is tried again later, its images not dropped.
        if (error instanceof FileStoreUnavailableError) storeDown = error;
        // Otherwise not archived: the image is dropped from the article (see rewriteArticleImages).
      }
    }
  };
  await Promise.all(Array.from({ length: IMAGES_AT_ONCE }, worker));
  if (storeDown) throw storeDown;
  return archived;
}

async function readArticle(db: Queryable, articleId: string) {
  const { articles } = db.tables;
  const [row] = await db.orm
    .select({
      user_id: articles.userId,
      article_type: articles.articleType,
      image_url: articles.imageUrl,
      content: articles.content,
    })
    .from(articles)
    .where(eq(articles.id, articleId));
  return row;
}

type ArticleImagesRow = NonNullable<Awaited<ReturnType<typeof readArticle>>>;

/** Tries this often when the article's body changes under the job (an import's page arriving). */
const MAX_PASSES = 3;

export function archiveArticleImages(ctx: ServiceContext): JobHandler {
  return async (job, { lastTry }) => {
    const { articleId } = JSON.parse(job.payload) as { articleId: string };
    try {
      for (let pass = 0; pass < MAX_PASSES; pass += 1) {
        const article = await readArticle(ctx.db, articleId);
        // Deleted meanwhile, or not a web page: nothing to do.
        if (!article || article.user_id !== job.user_id || article.article_type !== 'web') return;
        if (await archiveOnce(ctx, job.user_id, articleId, article)) return;
      }
    } catch (error) {
      // The extraction workers were busy with other users' pages: another try later.
      if (error instanceof Error && error.name === 'ExtractionBusyError' && !lastTry)
        throw new RetryableJobError(error.message);
      if (error instanceof FileStoreUnavailableError && !lastTry) throw new RetryableJobError(error.message);
      await giveUp(ctx.db, job.user_id, articleId);
      throw error;
    }
  };
}

/** The body could not be read (too complex, workers busy to the last try): it stays as saved. */
async function giveUp(db: Queryable, userId: string, articleId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { articles } = tx.tables;
    await tx.orm
      .update(articles)
      .set({ imagesPending: false, updatedAt: laterOf(tx, articles.updatedAt, nowIso()) })
      .where(and(eq(articles.id, articleId), eq(articles.userId, userId)));
  });
}

/** One pass; false when the article changed while its images were fetched (the caller starts over). */
async function archiveOnce(
  ctx: ServiceContext,
  userId: string,
  articleId: string,
  article: ArticleImagesRow,
): Promise<boolean> {
  const lead = isRemote(article.image_url) ? article.image_url : null;
  const body = article.content ? await findArticleImagesOffThread(article.content, userId) : [];
  const addresses = [...new Set([...(lead ? [lead] : []), ...body])].slice(0, ARCHIVED_IMAGES_PER_ARTICLE);
  const archived = await archiveImages(ctx, userId, addresses);
  const localOf = Object.fromEntries(
    [...archived].map(([address, image]) => [address, archivedImageUrl(articleId, image)]),
  );
  const content = article.content
    ? await rewriteArticleImagesOffThread(article.content, localOf, userId)
    : article.content;
  // An archived address stays; a remote one that failed is dropped (it would tell its site who reads).
  const imageUrl = lead ? (localOf[lead] ?? null) : article.image_url;
  const applied = await ctx.db.transaction(async (tx) => {
    const current = await readArticle(tx, articleId);
    if (!current || current.user_id !== userId) return 'gone';
    if (current.content !== article.content || current.image_url !== article.image_url) return 'changed';
    const { articleImages } = tx.tables;
    for (const image of archived.values())
      await tx.orm
        .insert(articleImages)
        .values({ articleId, hash: image.hash, ext: image.ext, bytes: image.bytes, mime: image.mime })
        .onConflictDoNothing();
    const { articles } = tx.tables;
    await tx.orm
      .update(articles)
      .set({
        imageUrl,
        content,
        imagesPending: false,
        updatedAt: laterOf(tx, articles.updatedAt, nowIso()),
      })
      .where(eq(articles.id, articleId));
    return 'applied';
  });
  const images = [...archived.values()];
  if (applied === 'applied') {
    // A delete of another article using the same image may have removed its file between our write and
    // our commit: the rows now name it, so it is written again.
    for (const image of images) await storeImageFile(ctx.files, image.data, image.ext);
  }
  // Written for an article that is gone or changed; or, when applied, deleted since our commit (its delete
  // freed the files before we wrote them again above): no row names them, so no file stays behind.
  await freeUnusedImages(ctx, images);
  return applied !== 'changed';
}
