// A new device's first sync (issue 16): the change feed as cards (`?cards=true`, article rows without their
// body) and POST /api/articles/bodies for the bodies after, against a real server on a real SQLite file
// seeded through the server's own services.
import {
  BODIES_ANSWER_BYTES,
  BODIES_MAX_IDS,
  SERVER_ERRORS,
  newId,
  type BodiesResponse,
  type Change,
} from '@lectern/shared-schema';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../src/db/connection';
import { openServerDatabase } from '../src/testing/test-database';
import { insertArticle } from '../src/services/articles';
import { createHighlight } from '../src/services/highlights';
import { registerUser } from '../src/services/users';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient } from './support/api-client';

const PASSWORD = 'correct horse battery';
let dataDir: string;
let server: TestServer;
let reader: ApiClient;
let other: ApiClient;
/** The reader's articles, oldest first, with the bodies they were saved with. */
const saved: { id: string; content: string | null }[] = [];
let othersArticle: string;
/** Ids a millisecond apart in save order: two saves in one millisecond still list newest first. */
const ID_CLOCK = Date.now();

async function save(
  db: Queryable,
  userId: string,
  content: string | null,
  index: number,
  tags: string[] = [],
): Promise<string> {
  const { article } = await insertArticle(
    db,
    userId,
    {
      id: newId(ID_CLOCK + index),
      url: `https://example.com/bodies/${index}`,
      title: `Article ${index}`,
      description: `About ${index}`,
      author: null,
      image_url: null,
      screenshot_url: null,
      article_type: 'web',
      content,
      content_text: content ?? '',
      excerpt: null,
      published_date: null,
      site_name: 'example.com',
      language: 'en',
      reading_time: 1,
    },
    tags,
  );
  return article.id;
}

/** About `bytes` of body HTML, with characters JSON has to escape. */
const bodyOf = (index: number, bytes: number) =>
  `<p>"Quoted" body ${index} — ${'a line of prose\n'.repeat(Math.ceil(bytes / 16))}</p>`;

async function signIn(email: string): Promise<ApiClient> {
  const answer = await new ApiClient(server.url).post('/auth/login', { email, password: PASSWORD });
  expect(answer.status).toBe(200);
  return new ApiClient(server.url, answer.body.token);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lectern-bodies-'));
  const db = await openServerDatabase(dataDir);
  const owner = await registerUser(db, {
    email: 'bodies@example.com',
    password: PASSWORD,
    username: 'Bodies',
  });
  const stranger = await registerUser(db, {
    email: 'stranger@example.com',
    password: PASSWORD,
    username: 'Stranger',
  });
  await db.transaction(async (tx) => {
    for (let i = 0; i < 6; i += 1) {
      const content = i === 2 ? null : bodyOf(i, 2_000);
      saved.push({ id: await save(tx, owner.id, content, i, i === 0 ? ['garden'] : []), content });
    }
    // Three bodies of 44% of an answer each: two fit in one answer, the third comes in the next.
    for (let i = 6; i < 9; i += 1) {
      const content = bodyOf(i, BODIES_ANSWER_BYTES * 0.44);
      saved.push({ id: await save(tx, owner.id, content, i), content });
    }
    // One body larger than a whole answer still comes, alone.
    const huge = bodyOf(9, BODIES_ANSWER_BYTES * 1.2);
    saved.push({ id: await save(tx, owner.id, huge, 9), content: huge });
    await createHighlight(tx, owner.id, {
      id: newId(),
      articleId: saved[0]!.id,
      highlightedText: 'a line of prose',
      positionStart: 0,
      positionEnd: 15,
    });
    othersArticle = await save(tx, stranger.id, bodyOf(99, 1_000), 99);
  });
  // Two articles as saved before cards were stored with each change: their cards are built from columns.
  await db.run(sql`DELETE FROM article_cards WHERE article_id IN (${saved[3]!.id}, ${saved[4]!.id})`);
  await db.close();
  server = await startTestServer({ dataDir });
  reader = await signIn('bodies@example.com');
  other = await signIn('stranger@example.com');
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function wholeFeed(client: ApiClient, query: string): Promise<Change[]> {
  const changes: Change[] = [];
  let since = 0;
  for (;;) {
    const answer = await client.get(`/sync/changes?since=${since}&limit=1000${query}`);
    expect(answer.status).toBe(200);
    changes.push(...(answer.body.changes as Change[]));
    if (!answer.body.hasMore) return changes;
    since = answer.body.cursor;
  }
}

async function bodies(client: ApiClient, ids: unknown) {
  return client.post<BodiesResponse>('/articles/bodies', { ids });
}

describe('the change feed as cards', () => {
  it('answers article rows without their body, everything else as it is; without the option, with bodies', async () => {
    const full = await wholeFeed(reader, '');
    const cards = await wholeFeed(reader, '&cards=true');
    expect(cards.map((change) => [change.seq, change.entity, change.id])).toEqual(
      full.map((change) => [change.seq, change.entity, change.id]),
    );
    const articles = full.filter((change) => change.entity === 'article');
    expect(articles).toHaveLength(saved.length);
    for (const [index, change] of cards.entries()) {
      const whole = full[index]!;
      if (change.entity !== 'article') {
        expect(change).toEqual(whole);
        continue;
      }
      const { content, ...card } = whole.row as { content: string | null };
      expect(content).toBe(saved.find((article) => article.id === change.id)?.content);
      expect(change.row).toEqual(card);
      expect(change.row).not.toHaveProperty('content');
    }
    expect(cards.some((change) => change.entity === 'highlight')).toBe(true);
    // Tags go with the card: the first article's tag name is there.
    expect(cards.find((change) => change.id === saved[0]!.id)?.row).toMatchObject({ tags: ['garden'] });
  });

  it('lists every article as its card, stored or built from columns, newest first, as its GET less the body', async () => {
    const list = await reader.get('/articles');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Two of the reader's articles have no card stored (saved before cards were): listed all the same.
    expect(list.body.articles.map((article: { id: string }) => article.id)).toEqual(
      saved.map((article) => article.id).reverse(),
    );
    for (const listed of list.body.articles as { id: string }[]) {
      const { content: _content, ...card } = (await reader.get(`/articles/${listed.id}`)).body.article;
      expect(listed).toEqual(card);
    }
    expect(list.body.stats).toEqual({
      total: saved.length,
      unread: saved.length,
      read: 0,
      archived: 0,
      favorites: 0,
    });
    // The stranger's own list holds their one article, none of the reader's.
    const theirs = await other.get('/articles');
    expect(theirs.body.articles.map((article: { id: string }) => article.id)).toEqual([othersArticle]);
  });

  it("keeps each article's card with its latest change, and drops it with the article", async () => {
    const [first, second] = [saved[1]!.id, saved[4]!.id];
    expect((await reader.put(`/articles/${first}`, { isFavorite: true })).status).toBe(200);
    const tag = await reader.post('/tags', { name: 'moved' });
    expect(tag.status).toBe(201);
    expect((await reader.post(`/articles/${first}/tags`, { tagId: tag.body.tag.id })).status).toBe(200);
    // An article without a stored card gets one at its next change.
    expect((await reader.put(`/articles/${second}`, { isRead: true })).status).toBe(200);
    const cards = await wholeFeed(reader, '&cards=true');
    const full = await wholeFeed(reader, '');
    for (const id of [first, second]) {
      const { content: _content, ...card } = full.find((change) => change.id === id)!.row as {
        content: string | null;
      };
      expect(cards.find((change) => change.id === id)?.row).toEqual(card);
    }
    expect(cards.find((change) => change.id === first)?.row).toMatchObject({
      is_favorite: true,
      tags: ['moved'],
    });
    expect(cards.find((change) => change.id === second)?.row).toMatchObject({ is_read: true });

    const db = await openServerDatabase(dataDir);
    try {
      const owner = await db.get<{ id: string }>(
        sql`SELECT id FROM users WHERE email = 'bodies@example.com'`,
      );
      const gone = await save(db, owner!.id, bodyOf(50, 1_000), 50);
      expect(await db.all(sql`SELECT article_id FROM article_cards WHERE article_id = ${gone}`)).toHaveLength(
        1,
      );
      expect((await reader.delete(`/articles/${gone}`)).status).toBe(204);
      expect(await db.all(sql`SELECT article_id FROM article_cards WHERE article_id = ${gone}`)).toEqual([]);
      const afterDelete = await wholeFeed(reader, '&cards=true');
      expect(afterDelete.filter((change) => change.id === gone)).toEqual([
        expect.objectContaining({ op: 'delete', row: null }),
      ]);
    } finally {
      await db.close();
    }
  });

  it('pages far more cards than articles with bodies within the same page budget', async () => {
    const first = await reader.get('/sync/changes?since=0&limit=1000&cards=true');
    expect(first.body.hasMore).toBe(false);
    const withBodies = await reader.get('/sync/changes?since=0&limit=1000');
    expect(withBodies.body.hasMore).toBe(true);
  });
});

describe('POST /api/articles/bodies', () => {
  it("answers the caller's bodies in the order asked, a missing body as null", async () => {
    const ids = saved
      .slice(0, 6)
      .map((article) => article.id)
      .reverse();
    const answer = await bodies(reader, ids);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      bodies: ids.map((id) => {
        const { content } = saved.find((article) => article.id === id)!;
        // The body only: the device makes its search text itself (the answer carries half the bytes).
        return { id, content };
      }),
      unknown: [],
    });
    expect(answer.body.bodies[3]).toEqual({ id: saved[2]!.id, content: null });
  });

  it("names another user's article and ids that don't exist as unknown, and shows nothing of them", async () => {
    const nowhere = newId();
    const answer = await bodies(reader, [othersArticle, saved[1]!.id, nowhere, saved[1]!.id]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      bodies: [{ id: saved[1]!.id, content: saved[1]!.content }],
      unknown: [othersArticle, nowhere],
    });
    expect(JSON.stringify(answer.body)).not.toContain('body 99');
    // The other user gets theirs, and none of the reader's.
    const theirs = await bodies(other, [othersArticle, saved[0]!.id]);
    expect(theirs.body.bodies.map((body) => body.id)).toEqual([othersArticle]);
    expect(theirs.body.unknown).toEqual([saved[0]!.id]);
  });

  it('stops an answer at its byte budget and leaves the rest for the next call; a larger body comes alone', async () => {
    const [a, b, c, huge] = saved.slice(6).map((article) => article.id) as [string, string, string, string];
    const first = await bodies(reader, [a, b, c, huge]);
    expect(first.status).toBe(200);
    expect(first.body.bodies.map((body) => body.id)).toEqual([a, b]);
    expect(first.body.unknown).toEqual([]);
    const second = await bodies(reader, [c, huge]);
    expect(second.body.bodies.map((body) => body.id)).toEqual([c]);
    const third = await bodies(reader, [huge]);
    expect(third.body.bodies).toEqual([{ id: huge, content: saved[9]!.content }]);
    expect(Number(third.headers.get('content-length'))).toBeGreaterThan(BODIES_ANSWER_BYTES);
  });

  it('refuses too many ids, none, or a bad shape with 400, a larger request with 413, and no session with 401', async () => {
    const tooMany = await bodies(
      reader,
      Array.from({ length: BODIES_MAX_IDS + 1 }, () => newId()),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({
      error: `Invalid body: ids must NOT have more than ${BODIES_MAX_IDS} items`,
    });
    const none = await bodies(reader, []);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'Invalid body: ids must NOT have fewer than 1 items' });
    const notStrings = await bodies(reader, [{ id: saved[0]!.id }]);
    expect(notStrings.status).toBe(400);
    const tooLong = await bodies(reader, ['x'.repeat(65)]);
    expect(tooLong.status).toBe(400);
    const huge = await reader.post(
      '/articles/bodies',
      `{"ids":["${saved[0]!.id}"],"pad":"${'x'.repeat(20_000)}"}`,
    );
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: SERVER_ERRORS.tooLarge });
    const anonymous = await new ApiClient(server.url).post('/articles/bodies', { ids: [saved[0]!.id] });
    expect(anonymous.status).toBe(401);
  });
});
