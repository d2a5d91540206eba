// Item 15 of issue 10: nothing grows with the size of a library in one piece. The change feed pages by
// bytes, the export is streamed, and Idempotency-Key replays keep only a status and ids, for a while.
import {
  ARTICLE_TAGS_MAX,
  CARDS_MAX_LIMIT,
  CHANGES_MAX_LIMIT,
  TAG_NAME_MAX_LENGTH,
  exportFileName,
  newId,
  type Change,
} from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import { openServerDatabase } from '../src/testing/test-database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_PAGE_BYTES, FEED_PAGE_BYTES } from '../src/services/sync';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, importFinished, signUp } from './support/api-client';
import { articlePage, startFixtureSite, type FixtureSite } from './support/fixture-site';

const sentence = (topic: string, i: number) =>
  `Paragraph ${i} about ${topic} goes on at length, with clauses, commas and full sentences, so that it reads as prose.`;

/** A page whose extracted body is about `kb` kilobytes. */
function bigPage(title: string, kb: number): string {
  const count = Math.ceil((kb * 1024) / 110);
  return articlePage({ title, paragraphs: Array.from({ length: count }, (_, i) => sentence(title, i)) });
}

let site: FixtureSite;
let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  site = await startFixtureSite({
    '/one': bigPage('Rivers', 400),
    '/two': bigPage('Mountains', 400),
    '/three': bigPage('Forests', 400),
    '/four': bigPage('Deserts', 400),
    '/huge': bigPage('Oceans', 1500),
    '/small': articlePage({
      title: 'A short note',
      paragraphs: [sentence('notes', 1), sentence('notes', 2)],
    }),
  });
  server = await startTestServer({ env: { FETCH_ALLOWED_ORIGINS: site.origin } });
  api = new ApiClient(server.url);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await site?.close();
});

function openStore() {
  return openServerDatabase(server.dataDir);
}

async function saveAll(client: ApiClient, paths: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const path of paths) {
    const answer = await client.post('/articles', { url: site.url(path), tags: [`tag ${path}`] });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 200)).toBe(201);
    ids.push(answer.body.article.id);
  }
  return ids;
}

describe('the change feed pages by bytes', () => {
  it('cuts pages near the byte budget, never loses or repeats a row, and always moves on', async () => {
    const { client } = await signUp(api);
    const ids = await saveAll(client, ['/one', '/small', '/two', '/huge', '/three', '/four']);
    await client.put(`/articles/${ids[1]}`, { isFavorite: true });

    const pages: { text: string; hasMore: boolean; changes: Change[] }[] = [];
    let since = 0;
    for (;;) {
      const answer = await fetch(`${server.url}/api/sync/changes?since=${since}&limit=${CHANGES_MAX_LIMIT}`, {
        headers: { authorization: `Bearer ${client.token}` },
      });
      const text = await answer.text();
      const page = JSON.parse(text) as { cursor: number; hasMore: boolean; changes: Change[] };
      pages.push({ text, hasMore: page.hasMore, changes: page.changes });
      expect(page.changes.length).toBeGreaterThan(0);
      since = page.cursor;
      if (!page.hasMore) break;
    }
    // Six articles of 0.4-1.5 MB (each row carries its body, HTML) can't come in one page of 1,000 rows.
    console.log(`feed pages: ${pages.map((p) => `${p.changes.length} rows/${p.text.length} B`).join(', ')}`);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) {
      const biggestRow = Math.max(...page.changes.map((change) => JSON.stringify(change.row).length));
      // Within the budget, or a single row that is larger than the budget on its own.
      if (page.changes.length > 1) expect(page.text.length).toBeLessThan(FEED_PAGE_BYTES + 4096);
      else expect(page.text.length).toBeLessThan(biggestRow + 4096);
    }
    const huge = pages.find((page) => page.changes.some((c) => c.id === ids[3]));
    expect(huge?.changes).toHaveLength(1);

    // Every row once, in order: the same rows as one row per page.
    const paged = pages.flatMap((page) => page.changes.map((c) => c.seq));
    expect(new Set(paged).size).toBe(paged.length);
    expect([...paged].sort((a, b) => a - b)).toEqual(paged);
    const onePerPage: number[] = [];
    let cursor = 0;
    for (;;) {
      const { body } = await client.get(`/sync/changes?since=${cursor}&limit=1`);
      onePerPage.push(...body.changes.map((c: Change) => c.seq));
      cursor = body.cursor;
      if (!body.hasMore) break;
    }
    expect(paged).toEqual(onePerPage);
    const articleIds = pages.flatMap((page) =>
      page.changes.filter((c) => c.entity === 'article').map((c) => c.id),
    );
    expect([...articleIds].sort()).toEqual([...ids].sort());
  }, 60_000);

  it('cuts a page of cards near its own byte budget, before its row limit, and every article comes once', async () => {
    const { client } = await signUp(api);
    // Cards as large as a reader's can be: every one of the most tags an article may have, each of the
    // longest name. 1,100 of them are over the budget, well under a page's row limit.
    const tags = Array.from(
      { length: ARTICLE_TAGS_MAX },
      (_, i) => `${String(i).padStart(2, '0')} ${'t'.repeat(TAG_NAME_MAX_LENGTH - 3)}`,
    ).join('|');
    const rows = 1100;
    const csv =
      'title,url,time_added,tags,status\n' +
      Array.from(
        { length: rows },
        (_, i) => `Card ${i},${site.url(`/gone-${i}`)},1577836800,${tags},unread\n`,
      ).join('');
    const form = new FormData();
    form.append('file', new Blob([csv]), 'pocket.csv');
    const upload = await client.post('/imports', form);
    expect(upload.status, JSON.stringify(upload.body)).toBe(202);
    expect(await importFinished(client, upload.body.import.id, 2400)).toMatchObject({
      imported: rows,
      failed: 0,
    });

    const pages: { bytes: number; hasMore: boolean; changes: Change[] }[] = [];
    let since = 0;
    for (;;) {
      const answer = await fetch(
        `${server.url}/api/sync/changes?since=${since}&limit=${CARDS_MAX_LIMIT}&cards=true`,
        { headers: { authorization: `Bearer ${client.token}` } },
      );
      expect(answer.status).toBe(200);
      const bytes = Buffer.from(await answer.arrayBuffer());
      const page = JSON.parse(bytes.toString('utf8')) as {
        cursor: number;
        hasMore: boolean;
        changes: Change[];
      };
      pages.push({ bytes: bytes.length, hasMore: page.hasMore, changes: page.changes });
      since = page.cursor;
      if (!page.hasMore) break;
    }
    console.log(`pages of cards: ${pages.map((p) => `${p.changes.length} rows/${p.bytes} B`).join(', ')}`);
    // The first page stopped at the budget (the cards are over 5 KB each), not at its 5,000 rows, and the
    // budget counts each change whole, not its row alone.
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]!.hasMore).toBe(true);
    expect(pages[0]!.changes.length).toBeLessThan(rows);
    for (const page of pages) expect(page.bytes).toBeLessThan(CARDS_PAGE_BYTES + 1024);
    expect(pages[0]!.bytes).toBeGreaterThan(CARDS_PAGE_BYTES * 0.9);
    // Cards, never bodies; every article once, with its tags.
    const articles = pages.flatMap((page) => page.changes.filter((change) => change.entity === 'article'));
    expect(new Set(articles.map((change) => change.id)).size).toBe(rows);
    expect(articles).toHaveLength(rows);
    for (const change of articles) {
      expect(change.row).not.toHaveProperty('content');
      expect((change.row as { tags: string[] }).tags).toHaveLength(ARTICLE_TAGS_MAX);
    }
  }, 180_000);
});

describe('the export is streamed', () => {
  it('sends the same JSON document, laid out as before, as a download', async () => {
    const { client, user } = await signUp(api);
    const ids = await saveAll(client, ['/small', '/one']);
    await client.post('/highlights', {
      articleId: ids[0],
      highlightedText: 'about notes',
      positionStart: 0,
      positionEnd: 11,
    });
    const list = await client.post('/lists', { name: 'Reading', description: 'later' });
    await client.post(`/lists/${list.body.list.id}/articles`, { articleId: ids[1] });
    await client.post('/lists', { name: 'Empty' });

    const answer = await fetch(`${server.url}/api/auth/export`, {
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="${exportFileName(new Date())}"`,
    );
    // Streamed: no length known up front.
    expect(answer.headers.get('transfer-encoding')).toBe('chunked');
    const text = await answer.text();
    const document = JSON.parse(text);
    // Exactly what JSON.stringify(document, null, 2) wrote before.
    expect(text).toBe(JSON.stringify(document, null, 2));
    expect(Object.keys(document)).toEqual([
      'product',
      'exported_at',
      'user',
      'articles',
      'tags',
      'lists',
      'highlights',
    ]);
    expect(document.product).toBe('Lectern');
    expect(document.user).toEqual(user);
    expect(document.articles.map((a: { id: string }) => a.id)).toEqual(ids);
    expect(document.articles[1].content.length).toBeGreaterThan(300_000);
    expect(document.articles[0]).toEqual((await client.get(`/articles/${ids[0]}`)).body.article);
    expect(document.tags.map((t: { name: string }) => t.name)).toEqual(['tag /one', 'tag /small']);
    expect(
      document.lists.map((l: { name: string; article_ids: string[] }) => [l.name, l.article_ids]),
    ).toEqual([
      ['Empty', []],
      ['Reading', [ids[1]]],
    ]);
    expect(document.highlights).toHaveLength(1);
  }, 60_000);

  it('lays out an empty library as before', async () => {
    const { client } = await signUp(api);
    const text = await (
      await fetch(`${server.url}/api/auth/export`, { headers: { authorization: `Bearer ${client.token}` } })
    ).text();
    expect(text).toBe(JSON.stringify(JSON.parse(text), null, 2));
    expect(JSON.parse(text)).toMatchObject({ articles: [], tags: [], lists: [], highlights: [] });
  });
});

describe('Idempotency-Key replays', () => {
  const keyed = () => ({ headers: { 'idempotency-key': newId() } });

  it('keep the status and the entity id, never an answer body, and replay the entity as it is now', async () => {
    const { client, user } = await signUp(api);
    const [id] = await saveAll(client, ['/one']);
    const options = keyed();
    const first = await client.put(`/articles/${id}`, { isRead: true }, options);
    expect(first.status).toBe(200);

    const db = await openStore();
    const rows = await db.all(
      sql`SELECT status_code, body, entity, entity_id FROM idempotency_keys WHERE user_id = ${user.id}`,
    );
    expect(rows).toEqual([{ status_code: 200, body: null, entity: 'article', entity_id: id }]);

    await client.put(`/articles/${id}`, { isFavorite: true });
    const replay = await client.put(`/articles/${id}`, { isRead: true }, options);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.body).toEqual((await client.get(`/articles/${id}`)).body);
    expect(replay.body.article).toMatchObject({ is_read: true, is_favorite: true });

    // A refusal keeps its small {error}: the client acts on it.
    const refusedOptions = keyed();
    const refused = await client.put(`/articles/${newId()}`, { isRead: true }, refusedOptions);
    expect(refused.status).toBe(404);
    const again = await client.put(`/articles/${refused.body.error ? newId() : ''}`, {}, refusedOptions);
    expect(again.status).toBe(400); // another path under the same key
    const stored = await db.get(
      sql`SELECT status_code, body FROM idempotency_keys WHERE user_id = ${user.id} AND status_code = 404`,
    );
    expect(stored).toEqual({ status_code: 404, body: JSON.stringify(refused.body) });

    // Once the article is deleted, nothing of it stays behind, and a replay says it is gone.
    const deleteOptions = keyed();
    expect((await client.delete(`/articles/${id}`, deleteOptions)).status).toBe(204);
    expect((await client.delete(`/articles/${id}`, deleteOptions)).status).toBe(204);
    const afterDelete = await client.put(`/articles/${id}`, { isRead: true }, options);
    expect(afterDelete.status).toBe(404);
    const bodies = await db.all<{ body: string | null }>(
      sql`SELECT body FROM idempotency_keys WHERE user_id = ${user.id}`,
    );
    expect(bodies.every((row) => row.body === null || row.body.length < 200)).toBe(true);

    // Deleting the account deletes its keys.
    expect((await client.delete('/auth/account')).status).toBe(204);
    expect(await db.get(sql`SELECT count(*) AS n FROM idempotency_keys WHERE user_id = ${user.id}`)).toEqual({
      n: 0,
    });
    await db.close();
  }, 60_000);

  it('replays the answers of list, tag and highlight writes in their routes’ shapes', async () => {
    const { client } = await signUp(api);
    const [articleId] = await saveAll(client, ['/small']);
    const list = (await client.post('/lists', { name: 'Weekend' })).body.list;
    const tag = (await client.post('/tags', { name: 'later' })).body.tag;
    const highlight = (
      await client.post('/highlights', {
        articleId,
        highlightedText: 'about notes',
        positionStart: 0,
        positionEnd: 11,
      })
    ).body.highlight;
    const calls: [string, string, unknown][] = [
      ['POST', `/lists/${list.id}/articles`, { articleId }],
      ['PUT', `/lists/${list.id}/reorder`, { articles: [articleId] }],
      ['PUT', `/tags/${tag.id}`, { name: 'Later' }],
      ['PUT', `/highlights/${highlight.id}`, { contextBefore: 'x' }],
      ['POST', `/articles/${articleId}/tags`, { tagId: tag.id }],
    ];
    for (const [method, path, body] of calls) {
      const options = { ...keyed(), body };
      const first = await client.request(method, path, options);
      expect(first.status, path).toBe(200);
      const replay = await client.request(method, path, options);
      expect(replay.headers.get('idempotent-replay'), path).toBe('true');
      expect(replay.status, path).toBe(200);
      expect(replay.body, path).toEqual(first.body);
    }
  });
});

describe('Idempotency-Key expiry', () => {
  it('forgets a key after IDEMPOTENCY_TTL_SECONDS and prunes its row', async () => {
    const short = await startTestServer({
      env: { FETCH_ALLOWED_ORIGINS: site.origin, IDEMPOTENCY_TTL_SECONDS: '1' },
    });
    try {
      const { client, user } = await signUp(new ApiClient(short.url));
      const tag = (await client.post('/tags', { name: 'first' })).body.tag;
      const options = { headers: { 'idempotency-key': 'expiring-key-1' } };
      expect((await client.put(`/tags/${tag.id}`, { name: 'second' }, options)).status).toBe(200);
      expect(
        (await client.put(`/tags/${tag.id}`, { name: 'second' }, options)).headers.get('idempotent-replay'),
      ).toBe('true');
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      const db = await openServerDatabase(short.dataDir);
      const fresh = await client.put(`/tags/${tag.id}`, { name: 'second' }, options);
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('idempotent-replay')).toBeNull();
      // The expired row was swept and the fresh try remembered in its place.
      const rows = await db.all<{ created_at: string }>(
        sql`SELECT created_at FROM idempotency_keys WHERE user_id = ${user.id}`,
      );
      expect(rows).toHaveLength(1);
      expect(Date.now() - Date.parse(rows[0]!.created_at)).toBeLessThan(1_000);
      await db.close();
    } finally {
      await short.close();
    }
  });
});
