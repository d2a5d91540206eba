// Highlight search ranks only the caller's matches: the owner is in the full-text index (migration 0004),
// as it is for articles, so another user's many matches cost the caller nothing.
import { newId } from '@lectern/shared-schema';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagesSettled, signUp, type ApiClient } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const STRANGER_HIGHLIGHTS = 60_000;

/**
 * Saves the page with one highlight, its images archived first: the archiving writes the article's image
 * a moment after the save, which records each of its highlights in the feed again (their article_image),
 * and for the stranger's tens of thousands that would take the server's attention in the middle of the
 * searches measured.
 */
async function saveWithHighlight(client: ApiClient, text: string) {
  const saved = (await client.post('/articles', { url: world.site.url('/gardening') })).body.article;
  const article = await imagesSettled(client, saved.id);
  const answer = await client.post('/highlights', {
    articleId: article.id,
    highlightedText: text,
    positionStart: 0,
    positionEnd: text.length,
  });
  expect(answer.status).toBe(201);
  return { article, highlight: answer.body.highlight };
}

describe('highlight search with many matches of another user', () => {
  it('answers only the caller’s matches, without ranking everyone else’s', async () => {
    const reader = await signUp(world.api);
    const stranger = await signUp(world.api);
    const mine = await saveWithHighlight(reader.client, 'Kale keeps growing under frost');
    const theirs = await saveWithHighlight(stranger.client, 'Kale of the stranger');

    // The stranger has tens of thousands of highlights with the same word (written straight to the file,
    // as the server's triggers index them).
    const db = new Database(join(world.server.dataDir, 'lectern.sqlite'));
    db.pragma('busy_timeout = 5000');
    const at = new Date().toISOString();
    const insert = db.prepare(
      `INSERT INTO highlights (id, user_id, article_id, highlighted_text, context_before, context_after,
         position_start, position_end, color, created_at, updated_at) VALUES (?, ?, ?, ?, '', '', 0, 10, 'yellow', ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < STRANGER_HIGHLIGHTS; i += 1) {
        insert.run(newId(), stranger.user.id, theirs.article.id, `kale kale note ${i}`, at, at);
      }
    })();
    // The index knows each highlight's owner.
    const seqOf = (id: string) =>
      (db.prepare('SELECT seq FROM highlights WHERE id = ?').get(id) as { seq: number }).seq;
    expect(
      db.prepare('SELECT user_id FROM highlights_fts WHERE rowid = ?').get(seqOf(mine.highlight.id)),
    ).toEqual({ user_id: reader.user.id });
    db.close();

    const times: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const started = performance.now();
      const answer = await reader.client.get('/highlights/search?q=kale');
      times.push(performance.now() - started);
      expect(answer.status).toBe(200);
      expect(answer.body.highlights.map((h: { id: string }) => h.id)).toEqual([mine.highlight.id]);
    }
    const median = [...times].sort((a, b) => a - b)[3]!;
    console.log(
      `highlight search beside ${STRANGER_HIGHLIGHTS} stranger matches: median ${median.toFixed(1)} ms`,
    );
    expect(median).toBeLessThan(100);
  }, 120_000);
});
