// Archived images in the file store (DATA_DIR, or S3): one file per content hash under images/, the
// article_images rows saying which article uses which, and who may read them (the owner, or anyone when
// the article is in a public list). The rows are the only way in: a file whose hash no row of that article
// names answers 404.
import { ARCHIVED_IMAGE_PATH, SERVER_ERRORS } from '@lectern/shared-schema';
import { createHash } from 'node:crypto';
import type { Db } from '../db/connection';
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
export function imagesOfArticles(
  db: Db,
  where: string,
  ...params: unknown[]
): { hash: string; ext: string }[] {
  return db
    .statement(
      `SELECT DISTINCT i.hash, i.ext FROM article_images i JOIN articles a ON a.id = i.article_id WHERE ${where}`,
    )
    .all(...params) as { hash: string; ext: string }[];
}

/** Removes the files of these images that no article uses any more. */
export async function freeUnusedImages(
  ctx: { db: Db; files: FileStore },
  images: readonly { hash: string; ext: string }[],
): Promise<void> {
  for (const image of images) {
    const used = ctx.db.statement('SELECT 1 FROM article_images WHERE hash = ? LIMIT 1').get(image.hash);
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
  ctx: { db: Db; files: FileStore },
  viewer: string | null,
  articleId: string,
  file: string,
): Promise<ServedImage> {
  const name = FILE_NAME.exec(file);
  if (!name) throw notFound(SERVER_ERRORS.notFound);
  const [, hash = '', ext = ''] = name;
  const row = ctx.db
    .statement(
      `SELECT a.user_id, i.mime, EXISTS (SELECT 1 FROM list_articles la JOIN reading_lists l ON l.id = la.list_id
          WHERE la.article_id = a.id AND l.is_public = 1) AS in_public_list
         FROM article_images i JOIN articles a ON a.id = i.article_id
        WHERE i.article_id = ? AND i.hash = ? AND i.ext = ?`,
    )
    .get(articleId, hash, ext) as { user_id: string; mime: string; in_public_list: number } | undefined;
  if (!row) throw notFound(SERVER_ERRORS.notFound);
  const audience = viewer !== null && viewer === row.user_id ? 'owner' : row.in_public_list ? 'public' : null;
  if (!audience) throw notFound(SERVER_ERRORS.notFound);
  const bytes = await ctx.files.read(imageKey(hash, ext));
  if (!bytes) throw notFound(SERVER_ERRORS.notFound);
  return { bytes, mime: row.mime, audience };
}
