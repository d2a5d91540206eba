// Articles saved before cards were stored with each change (migration 0012) get theirs once, by a
// background job queued at start: the list then reads every article's stored card, equal to its GET less
// the body, and a later start queues nothing.
import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../src/testing/start-test-server';
import { openServerDatabase } from '../src/testing/test-database';
import { ApiClient, signUp } from './support/api-client';
import { startFixtureSite, type FixtureSite } from './support/fixture-site';

let site: FixtureSite;
let dataDir: string;
beforeAll(async () => {
  site = await startFixtureSite();
  dataDir = mkdtempSync(join(tmpdir(), 'lectern-cards-backfill-'));
});
afterAll(async () => {
  await site.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function storedCardIds(): Promise<string[]> {
  const db = await openServerDatabase(dataDir);
  try {
    const rows = await db.all<{ article_id: string }>(
      sql`SELECT article_id FROM article_cards ORDER BY article_id`,
    );
    return rows.map((row) => row.article_id);
  } finally {
    await db.close();
  }
}

describe('cards of articles saved before cards were stored', () => {
  it('are stored once by a job at start, each its article’s GET less the body', async () => {
    const env = { FETCH_ALLOWED_ORIGINS: site.origin };
    let server = await startTestServer({ env, dataDir });
    const { client } = await signUp(new ApiClient(server.url));
    const { client: stranger } = await signUp(new ApiClient(server.url));
    const ids: string[] = [];
    for (const path of ['/gardening', '/astronomy', '/baking']) {
      const saved = await client.post('/articles', { url: site.url(path), tags: ['kept'] });
      expect(saved.status).toBe(201);
      ids.push(saved.body.article.id);
    }
    expect((await stranger.post('/articles', { url: site.url('/cycling') })).status).toBe(201);
    await server.close();

    // As an older server left them: two of the reader's articles and the stranger's without a card, and no
    // marker of the backfill.
    const old = await openServerDatabase(dataDir);
    const before = (await old.all<{ article_id: string }>(sql`SELECT article_id FROM article_cards`)).map(
      (row) => row.article_id,
    );
    expect(before).toHaveLength(4);
    const kept = ids[0]!;
    await old.run(sql`DELETE FROM article_cards WHERE article_id <> ${kept}`);
    await old.run(sql`DELETE FROM server_markers WHERE name = 'article-cards-backfill'`);
    await old.close();
    expect(await storedCardIds()).toEqual([kept]);

    server = await startTestServer({ env, dataDir });
    const reader = new ApiClient(server.url, client.token);
    const deadline = Date.now() + 20_000;
    while ((await storedCardIds()).length < 4 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await storedCardIds()).toEqual([...before].sort());
    const listed = (await reader.get('/articles')).body.articles as { id: string }[];
    expect(listed.map((article) => article.id)).toEqual([...ids].reverse());
    for (const article of listed) {
      const { content: _content, ...card } = (await reader.get(`/articles/${article.id}`)).body.article;
      expect(article).toEqual(card);
    }
    await server.close();

    // Once: the marker stays, one job per user was queued, and a later start queues no other.
    const check = await openServerDatabase(dataDir);
    expect(
      await check.all(sql`SELECT name FROM server_markers WHERE name = 'article-cards-backfill'`),
    ).toHaveLength(1);
    const jobsOfKind = sql`SELECT count(*) AS n FROM jobs WHERE kind = 'fill-article-cards'`;
    expect(Number((await check.get<{ n: number | string }>(jobsOfKind))?.n)).toBe(2);
    await check.close();
    server = await startTestServer({ env, dataDir });
    await server.close();
    const last = await openServerDatabase(dataDir);
    expect(Number((await last.get<{ n: number | string }>(jobsOfKind))?.n)).toBe(2);
    await last.close();
  });
});
