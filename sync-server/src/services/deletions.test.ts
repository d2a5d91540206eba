// Deleting an article or an account removes the files it owned under DATA_DIR (a temporary folder here),
// and nothing of anyone else's. On a fresh database of the run's engine (SQLite or PostgreSQL), migrated.
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextPerTest } from '../testing/service-context';
import { findArticle } from './article-rows';
import { deleteAccount, deleteArticleAndFiles } from './deletions';
import { screenshotUrlOf } from './screenshots';
import { sql } from 'drizzle-orm';

const t = contextPerTest(['ann', 'bob']);

const folderOf = (userId: string) => join(t.dataDir, 'uploads', userId);

/** A screenshot article with its image on disk, as an upload leaves them. */
async function addScreenshot(userId: string, extension = 'png'): Promise<string> {
  const id = await t.addArticle(userId, { article_type: 'screenshot' });
  await t.ctx.db.run(
    sql`UPDATE articles SET screenshot_url = ${screenshotUrlOf(id)}, image_url = ${screenshotUrlOf(id)} WHERE id = ${id}`,
  );
  mkdirSync(folderOf(userId), { recursive: true });
  writeFileSync(join(folderOf(userId), `${id}.${extension}`), 'image bytes');
  return id;
}

describe('deleteArticleAndFiles', () => {
  it("removes the article's rows and its screenshot, and only its own", async () => {
    const gone = await addScreenshot('ann', 'jpg');
    const kept = await addScreenshot('ann');
    await deleteArticleAndFiles(t.ctx, 'ann', gone);
    expect(await findArticle(t.ctx.db, 'ann', gone)).toBeUndefined();
    expect(readdirSync(folderOf('ann'))).toEqual([`${kept}.png`]);
  });

  it('deletes a web article without touching the folder', async () => {
    const screenshot = await addScreenshot('ann');
    const web = await t.addArticle('ann');
    await deleteArticleAndFiles(t.ctx, 'ann', web);
    expect(await findArticle(t.ctx.db, 'ann', web)).toBeUndefined();
    expect(readdirSync(folderOf('ann'))).toEqual([`${screenshot}.png`]);
  });

  it("refuses another user's article with 404 and leaves its row and image", async () => {
    const id = await addScreenshot('ann');
    await expect(deleteArticleAndFiles(t.ctx, 'bob', id)).rejects.toMatchObject({
      statusCode: 404,
      message: SERVER_ERRORS.articleNotFound,
    });
    expect(await findArticle(t.ctx.db, 'ann', id)).toBeDefined();
    expect(readdirSync(folderOf('ann'))).toEqual([`${id}.png`]);
  });
});

describe('deleteAccount', () => {
  it("removes the user's rows and their whole folder, and no one else's", async () => {
    const annScreenshot = await addScreenshot('ann');
    const bobScreenshot = await addScreenshot('bob');
    await deleteAccount(t.ctx, 'ann');
    expect(await t.ctx.db.all(sql`SELECT id FROM users ORDER BY id`)).toEqual([{ id: 'bob' }]);
    expect(await findArticle(t.ctx.db, 'ann', annScreenshot)).toBeUndefined();
    expect(existsSync(folderOf('ann'))).toBe(false);
    expect(readdirSync(folderOf('bob'))).toEqual([`${bobScreenshot}.png`]);
  });

  it('deletes an account that never uploaded anything', async () => {
    await deleteAccount(t.ctx, 'ann');
    expect(await t.ctx.db.get(sql`SELECT count(*) AS n FROM users`)).toEqual({ n: 1 });
  });
});
