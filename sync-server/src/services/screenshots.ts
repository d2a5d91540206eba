// Screenshot articles: the image kept under DATA_DIR for its owner, its OCR text as the article body.
import { newId, SCREENSHOT_URL_SCHEME, SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import { MAX_SCREENSHOT_PIXELS, screenshotArticleFields, sniffImage } from '../extraction/index';
import { getArticle } from './article-rows';
import { findReplayedArticle, insertArticle } from './articles';
import type { ServiceContext } from './context';
import { badRequest, HttpError, notFound } from './errors';

const EXTENSIONS = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;
const MIME_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

function userFolder(config: Config, userId: string): string {
  return join(config.dataDir, 'uploads', userId);
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
  const text = await ctx.extraction.ocr.recognize(upload.image);
  const fields = screenshotArticleFields(text);
  const id = upload.id ?? newId();
  const folder = userFolder(ctx.config, userId);
  await mkdir(folder, { recursive: true });
  const file = join(folder, `${id}.${EXTENSIONS[image.type]}`);
  await writeFile(file, upload.image);
  try {
    const { article } = await insertArticle(
      ctx.db,
      userId,
      {
        ...fields,
        id,
        url: `${SCREENSHOT_URL_SCHEME}${id}`,
        article_type: 'screenshot',
        screenshot_url: screenshotUrlOf(id),
        image_url: screenshotUrlOf(id),
        author: null,
        published_date: null,
        site_name: null,
        language: null,
      },
      upload.tags ?? [],
    );
    return article;
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}

/** The owner's screenshot image; anyone else gets 404. */
export async function readScreenshot(ctx: ServiceContext, userId: string, articleId: string) {
  const article = await getArticle(ctx.db, userId, articleId);
  if (article.article_type !== 'screenshot') throw notFound(SERVER_ERRORS.notFound);
  for (const [type, extension] of Object.entries(EXTENSIONS) as [keyof typeof EXTENSIONS, string][]) {
    try {
      const bytes = await readFile(join(userFolder(ctx.config, userId), `${articleId}.${extension}`));
      return { bytes, mimeType: MIME_TYPES[type] };
    } catch {
      // not this extension
    }
  }
  throw notFound(SERVER_ERRORS.notFound);
}

export async function removeScreenshotFile(config: Config, userId: string, articleId: string): Promise<void> {
  await Promise.all(
    Object.values(EXTENSIONS).map((extension) =>
      rm(join(userFolder(config, userId), `${articleId}.${extension}`), { force: true }),
    ),
  );
}

export async function removeUserFiles(config: Config, userId: string): Promise<void> {
  await rm(userFolder(config, userId), { recursive: true, force: true });
}
