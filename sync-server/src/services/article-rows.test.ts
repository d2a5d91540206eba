// The cached article read (GET /articles/{id}): the feed's copy of the article, never stale, never another
// user's. On a fresh database of the run's engine (SQLite or PostgreSQL), migrated.
import { SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { contextPerTest } from '../testing/service-context';
import { getArticle, readArticleAnswer } from './article-rows';
import { deleteArticle, updateArticle } from './articles';
import { sql } from 'drizzle-orm';

const t = contextPerTest(['ann', 'bob']);

const read = async (userId: string, articleId: string) =>
  (JSON.parse((await readArticleAnswer(t.ctx, userId, articleId)).toString('utf8')) as { article: Article })
    .article;

describe('readArticleAnswer', () => {
  it('serves the article as the tables hold it, and the current row after each update', async () => {
    const id = await t.addArticle('ann', { title: 'Cached' });
    expect(await read('ann', id)).toEqual(await getArticle(t.ctx.db, 'ann', id));
    expect((await read('ann', id)).is_read).toBe(false);

    await updateArticle(t.ctx.db, 'ann', id, { isRead: true, readingProgress: 40 });
    expect(await read('ann', id)).toMatchObject({ title: 'Cached', is_read: true, reading_progress: 40 });
    await updateArticle(t.ctx.db, 'ann', id, { isFavorite: true });
    expect(await read('ann', id)).toEqual(await getArticle(t.ctx.db, 'ann', id));
    expect(await read('ann', id)).toMatchObject({ is_read: true, is_favorite: true });
  });

  it('sends text in any script as its UTF-8 bytes, exactly as the tables hold it', async () => {
    const title = 'Café 東京の読書 — naïve Straße 🌊';
    const id = await t.addArticle('ann', { title, content: `<p>${title}</p>`, content_text: title });
    const answer = await readArticleAnswer(t.ctx, 'ann', id);
    expect(answer.includes(Buffer.from(title, 'utf8'))).toBe(true);
    expect(await read('ann', id)).toEqual(await getArticle(t.ctx.db, 'ann', id));
    expect(await read('ann', id)).toMatchObject({ title, content: `<p>${title}</p>` });
  });

  it('carries images_pending exactly as the tables hold it (read from its partial index)', async () => {
    const id = await t.addArticle('ann', { title: 'Pictures' });
    expect((await read('ann', id)).images_pending).toBe(false);
    await t.ctx.db.run(sql`UPDATE articles SET images_pending = ${true} WHERE id = ${id}`);
    expect((await getArticle(t.ctx.db, 'ann', id)).images_pending).toBe(true);
    await updateArticle(t.ctx.db, 'ann', id, { isRead: true });
    expect(await read('ann', id)).toEqual(await getArticle(t.ctx.db, 'ann', id));
    expect(await read('ann', id)).toMatchObject({ images_pending: true, is_read: true });
  });

  it("never serves another user's article, nor says it exists", async () => {
    const id = await t.addArticle('ann');
    await expect(readArticleAnswer(t.ctx, 'bob', id)).rejects.toThrow(
      expect.objectContaining({ statusCode: 404, message: SERVER_ERRORS.articleNotFound }),
    );
    await expect(readArticleAnswer(t.ctx, 'bob', 'no-such-article')).rejects.toThrow(
      expect.objectContaining({ statusCode: 404, message: SERVER_ERRORS.articleNotFound }),
    );
  });

  it('reads the tables when the feed holds no copy, and answers 404 once the article is deleted', async () => {
    const id = await t.addArticle('ann', { title: 'Unfed' });
    await updateArticle(t.ctx.db, 'ann', id, { isArchived: true });
    await t.ctx.db.run(sql`DELETE FROM change_log WHERE entity = 'article' AND entity_id = ${id}`);
    expect(await read('ann', id)).toEqual(await getArticle(t.ctx.db, 'ann', id));
    expect(await read('ann', id)).toMatchObject({ title: 'Unfed', is_archived: true });

    await deleteArticle(t.ctx.db, 'ann', id);
    await expect(readArticleAnswer(t.ctx, 'ann', id)).rejects.toThrow(
      expect.objectContaining({ statusCode: 404 }),
    );
  });
});
