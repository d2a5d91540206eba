// The cached article read (GET /articles/{id}): the feed's copy of the article, never stale, never another
// user's. On an in-memory SQLite built by the real migrations.
import { SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { contextPerTest } from '../testing/service-context';
import { getArticle, readArticleAnswer } from './article-rows';
import { deleteArticle, updateArticle } from './articles';

const t = contextPerTest(['ann', 'bob']);

const read = (userId: string, articleId: string) =>
  (JSON.parse(readArticleAnswer(t.ctx, userId, articleId).toString('utf8')) as { article: Article }).article;

describe('readArticleAnswer', () => {
  it('serves the article as the tables hold it, and the current row after each update', () => {
    const id = t.addArticle('ann', { title: 'Cached' });
    expect(read('ann', id)).toEqual(getArticle(t.ctx.db, 'ann', id));
    expect(read('ann', id).is_read).toBe(false);

    updateArticle(t.ctx.db, 'ann', id, { isRead: true, readingProgress: 40 });
    expect(read('ann', id)).toMatchObject({ title: 'Cached', is_read: true, reading_progress: 40 });
    updateArticle(t.ctx.db, 'ann', id, { isFavorite: true });
    expect(read('ann', id)).toEqual(getArticle(t.ctx.db, 'ann', id));
    expect(read('ann', id)).toMatchObject({ is_read: true, is_favorite: true });
  });

  it('sends text in any script as its UTF-8 bytes, exactly as the tables hold it', () => {
    const title = 'Café 東京の読書 — naïve Straße 🌊';
    const id = t.addArticle('ann', { title, content: `<p>${title}</p>`, content_text: title });
    const answer = readArticleAnswer(t.ctx, 'ann', id);
    expect(answer.includes(Buffer.from(title, 'utf8'))).toBe(true);
    expect(read('ann', id)).toEqual(getArticle(t.ctx.db, 'ann', id));
    expect(read('ann', id)).toMatchObject({ title, content: `<p>${title}</p>` });
  });

  it('carries images_pending exactly as the tables hold it (read from its partial index)', () => {
    const id = t.addArticle('ann', { title: 'Pictures' });
    expect(read('ann', id).images_pending).toBe(false);
    t.ctx.db.statement('UPDATE articles SET images_pending = 1 WHERE id = ?').run(id);
    expect(getArticle(t.ctx.db, 'ann', id).images_pending).toBe(true);
    updateArticle(t.ctx.db, 'ann', id, { isRead: true });
    expect(read('ann', id)).toEqual(getArticle(t.ctx.db, 'ann', id));
    expect(read('ann', id)).toMatchObject({ images_pending: true, is_read: true });
  });

  it("never serves another user's article, nor says it exists", () => {
    const id = t.addArticle('ann');
    expect(() => readArticleAnswer(t.ctx, 'bob', id)).toThrow(
      expect.objectContaining({ statusCode: 404, message: SERVER_ERRORS.articleNotFound }),
    );
    expect(() => readArticleAnswer(t.ctx, 'bob', 'no-such-article')).toThrow(
      expect.objectContaining({ statusCode: 404, message: SERVER_ERRORS.articleNotFound }),
    );
  });

  it('reads the tables when the feed holds no copy, and answers 404 once the article is deleted', () => {
    const id = t.addArticle('ann', { title: 'Unfed' });
    updateArticle(t.ctx.db, 'ann', id, { isArchived: true });
    t.ctx.db.statement(`DELETE FROM change_log WHERE entity = 'article' AND entity_id = ?`).run(id);
    expect(read('ann', id)).toEqual(getArticle(t.ctx.db, 'ann', id));
    expect(read('ann', id)).toMatchObject({ title: 'Unfed', is_archived: true });

    deleteArticle(t.ctx.db, 'ann', id);
    expect(() => readArticleAnswer(t.ctx, 'ann', id)).toThrow(expect.objectContaining({ statusCode: 404 }));
  });
});
