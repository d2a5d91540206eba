// Deletions that reach past SQLite: the rows go in their transaction first, then the files they owned
// under DATA_DIR. Files go only after the commit, so a delete that fails keeps its image; a file left by a
// crash between the two is an orphan no one can read (the routes that serve files check the row first).
import { sql } from 'drizzle-orm';
import { freeUnusedImages, imagesOfArticles } from './archived-images';
import type { ServiceContext } from './context';
import { deleteArticle } from './articles';
import { removeScreenshotFile, removeUserFiles } from './screenshots';
import { deleteUser } from './users';

/**
 * DELETE /articles/{id}: the article and what hangs on it (services/articles.ts), then its screenshot and
 * the archived images no other article uses.
 */
export async function deleteArticleAndFiles(ctx: ServiceContext, userId: string, articleId: string) {
  const images = await imagesOfArticles(ctx.db, sql`a.id = ${articleId} AND a.user_id = ${userId}`);
  const { screenshotUrl } = await deleteArticle(ctx.db, userId, articleId);
  if (screenshotUrl) await removeScreenshotFile(ctx.files, userId, articleId);
  await freeUnusedImages(ctx, images);
}

/**
 * DELETE /auth/account: every row of the user (services/users.ts), then their folder of uploads and the
 * archived images no one else's article uses.
 */
export async function deleteAccount(ctx: ServiceContext, userId: string): Promise<void> {
  const images = await imagesOfArticles(ctx.db, sql`a.user_id = ${userId}`);
  await deleteUser(ctx.db, userId);
  await removeUserFiles(ctx.files, userId);
  await freeUnusedImages(ctx, images);
}
