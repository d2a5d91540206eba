// Archived images in the file store (DATA_DIR, or S3): one file per content hash under images/, the
// article_images rows saying which article uses which, and who may read them (the owner, or anyone when
// the article is in a public list). The rows are the only way in: a file whose hash no row of that article
// names answers 404.
import { aliasedTable, and, eq, sql, type SQL } from 'drizzle-orm';
import { ARCHIVED_IMAGE_PATH, SERVER_ERRORS } from '@lectern/shared-schema';
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/connection';
import { select } from '../db/typed-select';
import type { FileStore } from '../storage/index';
import { notFound } from './errors';

/** The kinds of image kept, by the extension of their file and address. */
export const ARCHIVED_IMAGE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
} as const;
export type ArchivedImageExt = keyof typeof ARCHIVED_IMAGE_TYPES;

export interface StoredImage {
  hash: string;
  ext: ArchivedImageExt;
  bytes: number;
  mime: string;
}

const FILE_NAME = /^([0-9a-f]{64})\.(png|jpg|gif|webp|avif|svg)$/;

/** `images/ab/abcdef….png`: a folder per first byte keeps each folder small. */
function imageKey(hash: string, ext: string): string {
  return `images/${hash.slice(0, 2)}/${hash}.${ext}`;
}

export function archivedImageUrl(articleId: string, image: Pick<StoredImage, 'hash' | 'ext'>): string {
  return `${ARCHIVED_IMAGE_PATH}${articleId}/${image.hash}.${image.ext}`;
}

/**
 * Writes the bytes under their hash unless that file is there already (another article's copy). The store
 * never shows half a file (storage/local-file-store.ts writes and renames).
 */
export async function storeImageFile(
  files: FileStore,
  bytes: Buffer,
  ext: ArchivedImageExt,
): Promise<StoredImage> {
  const hash = createHash('sha256').update(bytes).digest('hex');
  const key = imageKey(hash, ext);
  if (!(await files.exists(key))) await files.put(key, bytes, ARCHIVED_IMAGE_TYPES[ext]);
  return { hash, ext, bytes: bytes.length, mime: ARCHIVED_IMAGE_TYPES[ext] };
}

/** The archived images of these articles (before a delete, to free them after its commit). */
export async function imagesOfArticles(db: Queryable, where: SQL): Promise<{ hash: string; ext: string }[]> {
  const i = aliasedTable(db.tables.articleImages, 'i');
  // Each file once (GROUP BY: the select list is the layer's).
  return await select(
    db,
    { hash: i.hash, ext: i.ext },
    sql`FROM article_images i JOIN articles a ON a.id = i.article_id WHERE ${where} GROUP BY i.hash, i.ext`,
  );
}

/** Removes the files of these images that no article uses any more. */
export async function freeUnusedImages(
  ctx: { db: Queryable; files: FileStore },
  images: readonly { hash: string; ext: string }[],
): Promise<void> {
  for (const image of images) {
    const { articleImages } = ctx.db.tables;
    const [used] = await ctx.db.orm
      .select({ hash: articleImages.hash })
      .from(articleImages)
      .where(eq(articleImages.hash, image.hash))
      .limit(1);
    if (!used) await ctx.files.delete(imageKey(image.hash, image.ext));
  }
}

export interface ServedImage {
  bytes: Buffer;
  mime: string;
  /** 'owner': read with the owner's token; 'public': the article is in a public list. */
  audience: 'owner' | 'public';
}

/**
 * GET /images/{articleId}/{file}: the owner (signed in) or anyone when the article is in a public list; 404
 * for everything else, the same answer for an image that exists and one that doesn't.
 */
export async function readArchivedImage(
  ctx: { db: Queryable; files: FileStore },
  viewer: string | null,
  articleId: string,
  file: string,
): Promise<ServedImage> {
  const name = FILE_NAME.exec(file);
  if (!name) throw notFound(SERVER_ERRORS.notFound);
  const [, hash = '', ext = ''] = name;
  const { articles, articleImages, listArticles, readingLists } = ctx.db.tables;
  const [row] = await ctx.db.orm
    .select({
      user_id: articles.userId,
      mime: articleImages.mime,
      // A truth, decoded as the flag columns are (SQLite answers 0 or 1).
      in_public_list: sql`EXISTS (SELECT 1 FROM ${listArticles}
        JOIN ${readingLists} ON ${readingLists.id} = ${listArticles.listId}
        WHERE ${listArticles.articleId} = ${articles.id} AND ${eq(readingLists.isPublic, true)})`.mapWith(
        readingLists.isPublic,
      ),
    })
    .from(articleImages)
    .innerJoin(articles, eq(articles.id, articleImages.articleId))
    .where(
      and(
        eq(articleImages.articleId, articleId),
        eq(articleImages.hash, hash),
        sql`${articleImages.ext} = ${ext}`,
      ),
    );
  if (!row) throw notFound(SERVER_ERRORS.notFound);
  const audience = viewer !== null && viewer === row.user_id ? 'owner' : row.in_public_list ? 'public' : null;
  if (!audience) throw notFound(SERVER_ERRORS.notFound);
  const bytes = await ctx.files.read(imageKey(hash, ext));
  if (!bytes) throw notFound(SERVER_ERRORS.notFound);
  return { bytes, mime: row.mime, audience };
}
