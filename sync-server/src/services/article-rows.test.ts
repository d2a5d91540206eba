// The cached article read (GET /articles/{id}): the feed's copy of the article, never stale, never another
// user's, and never to a session no longer active (the route leaves that check to this read's query). On a
// fresh database of the run's engine (SQLite or PostgreSQL), migrated.
import { SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../db/sql-functions';
import { contextPerTest } from '../testing/service-context';
import { getArticle, readArticleAnswer } from './article-rows';
import { deleteArticle, updateArticle } from './articles';
import { createSession, revokeSession, type TokenClaims } from './sessions';
import { sql } from 'drizzle-orm';

const t = contextPerTest(['ann', 'bob']);

/** The user's token's claims: a session of theirs, active. */
const signedIn = (userId: string) => createSession(t.ctx.db, userId);

const answerTo = async (userId: string, articleId: string) =>
  readArticleAnswer(t.ctx, await signedIn(userId), articleId);

const read = async (userId: string, articleId: string) =>
  (JSON.parse(jsonBytes(await answerTo(userId, articleId)).toString('utf8')) as { article: Article }).article;

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
    const answer = jsonBytes(await answerTo('ann', id));
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
    await expect(answerTo('bob', id)).rejects.toThrow(
      expect.objectContaining({ statusCode: 404, message: SERVER_ERRORS.articleNotFound }),
    );
    await expect(answerTo('bob', 'no-such-article')).rejects.toThrow(
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
    await expect(answerTo('ann', id)).rejects.toThrow(expect.objectContaining({ statusCode: 404 }));
  });

  it('answers 401 and nothing of the article to a session revoked, expired, or of another user', async () => {
    const id = await t.addArticle('ann', { title: 'Private' });
    const unauthorized = expect.objectContaining({ statusCode: 401, message: SERVER_ERRORS.unauthorized });
    const claims = await signedIn('ann');
    expect((await readArticleAnswer(t.ctx, claims, id)).includes('Private')).toBe(true);

    await revokeSession(t.ctx.db, claims.sid);
    await expect(readArticleAnswer(t.ctx, claims, id)).rejects.toThrow(unauthorized);
    // Also where the feed holds no copy (the answer would come from the tables).
    await t.ctx.db.run(sql`DELETE FROM change_log WHERE entity = 'article' AND entity_id = ${id}`);
    await expect(readArticleAnswer(t.ctx, claims, id)).rejects.toThrow(unauthorized);

    const expired = await signedIn('ann');
    await t.ctx.db.run(
      sql`UPDATE sessions SET expires_at = ${new Date(Date.now() - 1000).toISOString()} WHERE id = ${expired.sid}`,
    );
    await expect(readArticleAnswer(t.ctx, expired, id)).rejects.toThrow(unauthorized);

    // Bob's session with Ann's name in the token: no such session of Ann's.
    const bobs = await signedIn('bob');
    const forged: TokenClaims = { sub: 'ann', sid: bobs.sid };
    await expect(readArticleAnswer(t.ctx, forged, id)).rejects.toThrow(unauthorized);
    await expect(readArticleAnswer(t.ctx, { sub: 'ann', sid: 'no-such-session' }, id)).rejects.toThrow(
      unauthorized,
    );
  });
});
