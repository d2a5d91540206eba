// Screenshot articles: the image kept in the file store (DATA_DIR or S3) for its owner, its OCR text as
// the article body.
import { newId, SCREENSHOT_URL_SCHEME, SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { MAX_SCREENSHOT_PIXELS, screenshotArticleFields, sniffImage } from '../extraction/index';
import type { FileStore } from '../storage/index';
import { getArticle } from './article-rows';
import { findReplayedArticle, insertArticle } from './articles';
import type { ServiceContext } from './context';
import { badRequest, HttpError, notFound } from './errors';
import { queueAndAwait, writeOutcome } from '../jobs/awaited-jobs';
import { refusalOf } from './refusals';
import type { JobHandler } from '../jobs/job-queue';

export const READ_SCREENSHOT_JOB = 'read-screenshot';

const EXTENSIONS = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;
const MIME_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** The user's uploads, `uploads/<user>/` in the file store (a folder of DATA_DIR by default). */
function userFolder(userId: string): string {
  return `uploads/${userId}/`;
}

function screenshotKey(userId: string, articleId: string, extension: string): string {
  return `${userFolder(userId)}${articleId}.${extension}`;
}

export function screenshotUrlOf(articleId: string): string {
  return `/api/articles/${articleId}/screenshot`;
}

export interface ScreenshotUpload {
  image: Buffer;
  /** Already checked against the JSON body's rule (50 names of at most 100 characters). */
  tags?: string[] | undefined;
  id?: string | undefined;
}

/**
 * POST /articles/screenshot: the upload is read (`readUpload`) only once one of the user's upload slots is
 * held, so a user over their bound is refused (429) before their 15 MB are in memory; the slot is held
 * until OCR is done and the article is stored.
 */
export function saveScreenshot(
  ctx: ServiceContext,
  userId: string,
  readUpload: () => Promise<ScreenshotUpload>,
): Promise<Article> {
  return ctx.limits.uploads.run(userId, async () => createScreenshotArticle(ctx, userId, await readUpload()));
}

async function createScreenshotArticle(
  ctx: ServiceContext,
  userId: string,
  upload: ScreenshotUpload,
): Promise<Article> {
  const replayed = await findReplayedArticle(ctx.db, userId, upload.id);
  if (replayed) return replayed;
  const image = sniffImage(upload.image);
  if (!image) throw badRequest('The screenshot must be a PNG, JPEG or WebP image');
  if (image.width * image.height > MAX_SCREENSHOT_PIXELS) {
    throw new HttpError(413, 'The screenshot has too many pixels to read');
  }
  const id = upload.id ?? newId();
  const file = screenshotKey(userId, id, EXTENSIONS[image.type]);
  // Into the file store first, where the node that runs the job reads it (several nodes share S3).
  await ctx.files.put(file, upload.image, MIME_TYPES[image.type]);
  const payload: ScreenshotPayload = { articleId: id, file, tags: upload.tags ?? [] };
  const { article } = await queueAndAwait(ctx, {
    kind: READ_SCREENSHOT_JOB,
    key: `${userId}/${id}`,
    userId,
    payload,
  });
  return article;
}

interface ScreenshotPayload {
  articleId: string;
  /** The image's key in the file store. */
  file: string;
  tags: string[];
}

/**
 * The job: reads the stored image with OCR (off the main thread, bounded by OCR_TIMEOUT_MS), then writes the
 * article and the job's outcome in one transaction. A job run again after its article was written (its
 * node died before marking it done) answers that article without reading the image again. When no article
 * comes of it, the image is removed.
 */
export function readScreenshotJob(ctx: ServiceContext): JobHandler {
  return async (job) => {
    const { outcome: _earlier, ...shot } = JSON.parse(job.payload) as ScreenshotPayload & {
      outcome?: unknown;
    };
    const userId = job.user_id;
    const written = await findReplayedArticle(ctx.db, userId, shot.articleId);
    if (written) {
      await ctx.db.transaction((tx) =>
        writeOutcome(tx, job.id, shot, { article: written, alreadySaved: false }),
      );
      return;
    }
    try {
      const image = await ctx.files.read(shot.file);
      if (!image) throw notFound(SERVER_ERRORS.notFound);
      const fields = screenshotArticleFields(await ctx.extraction.ocr.recognize(image));
      await ctx.db.transaction(async (tx) => {
        const saved = await insertArticle(
          tx,
          userId,
          {
            ...fields,
            id: shot.articleId,
            url: `${SCREENSHOT_URL_SCHEME}${shot.articleId}`,
            article_type: 'screenshot',
            screenshot_url: screenshotUrlOf(shot.articleId),
            image_url: screenshotUrlOf(shot.articleId),
            author: null,
            published_date: null,
            site_name: null,
            language: null,
          },
          shot.tags,
        );
        await writeOutcome(tx, job.id, shot, saved);
      });
    } catch (error) {
      if (!(await findReplayedArticle(ctx.db, userId, shot.articleId))) await ctx.files.delete(shot.file);
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      await ctx.db.transaction((tx) => writeOutcome(tx, job.id, shot, refusal));
    }
  };
}

/** The owner's screenshot image; anyone else gets 404. */
export async function readScreenshot(ctx: ServiceContext, userId: string, articleId: string) {
  const article = await getArticle(ctx.db, userId, articleId);
  if (article.article_type !== 'screenshot') throw notFound(SERVER_ERRORS.notFound);
  for (const [type, extension] of Object.entries(EXTENSIONS) as [keyof typeof EXTENSIONS, string][]) {
    const bytes = await ctx.files.read(screenshotKey(userId, articleId, extension));
    if (bytes) return { bytes, mimeType: MIME_TYPES[type] };
  }
  throw notFound(SERVER_ERRORS.notFound);
}

export async function removeScreenshotFile(
  files: FileStore,
  userId: string,
  articleId: string,
): Promise<void> {
  await Promise.all(
    Object.values(EXTENSIONS).map((extension) => files.delete(screenshotKey(userId, articleId, extension))),
  );
}

export async function removeUserFiles(files: FileStore, userId: string): Promise<void> {
  await files.deleteAll(userFolder(userId));
}
