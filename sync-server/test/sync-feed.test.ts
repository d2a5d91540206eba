// The sync contract of DESIGN.md section 3 against a real server: the change feed, idempotent creates
// with client ids, and writes replayed with an Idempotency-Key.
import {
  CARDS_MAX_LIMIT,
  CHANGES_MAX_LIMIT,
  SERVER_ERRORS,
  listArticleKey,
  newId,
  type Change,
} from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagesSettled, signUp, type ApiClient } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;

beforeAll(async () => {
  world = await startWorld();
});

afterAll(async () => {
  await world?.close();
});

interface Feed {
  cursor: number;
  hasMore: boolean;
  changes: Change[];
}

async function newReader(): Promise<ApiClient> {
  return (await signUp(world.api)).client;
}

async function pull(client: ApiClient, since?: number, limit?: number): Promise<Feed> {
  const query = new URLSearchParams();
  if (since !== undefined) query.set('since', String(since));
  if (limit !== undefined) query.set('limit', String(limit));
  const answer = await client.get(`/sync/changes?${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(Object.keys(answer.body).sort()).toEqual(['changes', 'cursor', 'hasMore']);
  return answer.body;
}

async function cursorNow(client: ApiClient): Promise<number> {
  let feed = await pull(client, 0, CHANGES_MAX_LIMIT);
  while (feed.hasMore) feed = await pull(client, feed.cursor, CHANGES_MAX_LIMIT);
  return feed.cursor;
}

/** Each call saves a new article: a distinct address (the fixture site ignores the query). */
async function saveArticle(client: ApiClient, body: Record<string, unknown> = {}) {
  const url = `${world.site.url('/gardening')}?copy=${newId()}`;
  const answer = await client.post('/articles', { url, ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  // Its images are archived (or given up) in the background, which writes it once more: wait for that.
  return imagesSettled(client, answer.body.article.id);
}

async function createTag(client: ApiClient, name: string) {
  const answer = await client.post('/tags', { name });
  expect(answer.status).toBe(201);
  return answer.body.tag;
}

async function createList(client: ApiClient, name = 'Queue') {
  const answer = await client.post('/lists', { name });
  expect(answer.status).toBe(201);
  return answer.body.list;
}

async function createHighlight(client: ApiClient, articleId: string, text = 'compost and kale') {
  const answer = await client.post('/highlights', {
    articleId,
    highlightedText: text,
    positionStart: 0,
    positionEnd: text.length,
  });
  expect(answer.status).toBe(201);
  return answer.body.highlight;
}

/** What one write added to the feed. */
async function changesOf(client: ApiClient, write: () => Promise<unknown>): Promise<Change[]> {
  const before = await cursorNow(client);
  await write();
  const feed = await pull(client, before);
  expect(feed.hasMore).toBe(false);
  return feed.changes;
}

const summary = (change: Change) => `${change.op} ${change.entity} ${change.id}`;

describe('the change feed', () => {
  it('answers {cursor, hasMore, changes}, empty for a new reader', async () => {
    const reader = await newReader();
    expect(await pull(reader)).toEqual({ cursor: 0, hasMore: false, changes: [] });
  });

  it('carries every entity as an upsert with the row its GET served', async () => {
    const reader = await newReader();
    let tag: { id: string } = { id: '' };
    const tagChanges = await changesOf(reader, async () => (tag = await createTag(reader, 'Soil')));
    expect(tagChanges).toEqual([
      { seq: expect.any(Number), entity: 'tag', id: tag.id, op: 'upsert', row: tag },
    ]);

    let article: { id: string } = { id: '' };
    const articleChanges = await changesOf(
      reader,
      async () => (article = await saveArticle(reader, { tags: ['Soil'] })),
    );
    const savedArticle = (await reader.get(`/articles/${article.id}`)).body.article;
    expect(savedArticle.content).toEqual(expect.any(String));
    expect(articleChanges.find((change) => change.entity === 'article')).toEqual({
      seq: expect.any(Number),
      entity: 'article',
      id: article.id,
      op: 'upsert',
      row: savedArticle,
    });

    let list: { id: string } = { id: '' };
    const listChanges = await changesOf(reader, async () => (list = await createList(reader)));
    expect(listChanges).toEqual([
      { seq: expect.any(Number), entity: 'list', id: list.id, op: 'upsert', row: list },
    ]);

    const placeChanges = await changesOf(reader, () =>
      reader.post(`/lists/${list.id}/articles`, { articleId: article.id }),
    );
    const place = placeChanges.find((change) => change.entity === 'list_article');
    expect(place).toEqual({
      seq: expect.any(Number),
      entity: 'list_article',
      id: listArticleKey(list.id, article.id),
      op: 'upsert',
      row: { list_id: list.id, article_id: article.id, position: 0, added_at: expect.any(String) },
    });
    expect(place?.id).toBe(`${list.id}:${article.id}`);

    let highlight: { id: string } = { id: '' };
    const highlightChanges = await changesOf(
      reader,
      async () => (highlight = await createHighlight(reader, article.id)),
    );
    const servedHighlight = (await reader.get(`/highlights/${highlight.id}`)).body.highlight;
    expect(highlightChanges.find((change) => change.entity === 'highlight')).toEqual({
      seq: expect.any(Number),
      entity: 'highlight',
      id: highlight.id,
      op: 'upsert',
      row: servedHighlight,
    });
  });

  it('carries updates with the whole row after the update', async () => {
    const reader = await newReader();
    const article = await saveArticle(reader);
    const tag = await createTag(reader, 'Later');
    const list = await createList(reader);
    const highlight = await createHighlight(reader, article.id);

    const writes: [() => Promise<{ status: number; body: Record<string, unknown> }>, string, string][] = [
      [
        () => reader.put(`/articles/${article.id}`, { isFavorite: true, readingProgress: 0.5 }),
        'article',
        'article',
      ],
      [() => reader.put(`/tags/${tag.id}`, { name: 'Much later' }), 'tag', 'tag'],
      [() => reader.put(`/lists/${list.id}`, { name: 'Renamed', isPublic: false }), 'list', 'list'],
      [
        () => reader.put(`/highlights/${highlight.id}`, { highlightedText: 'kale' }),
        'highlight',
        'highlight',
      ],
    ];
    for (const [write, entity, key] of writes) {
      let answer: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
      const changes = await changesOf(reader, async () => (answer = await write()));
      expect(answer.status).toBe(200);
      expect(changes.map(summary)).toContain(`upsert ${entity} ${(answer.body[key] as { id: string }).id}`);
      expect(changes.find((change) => change.entity === entity)?.row).toEqual(answer.body[key]);
    }
  });

  it('carries deletes as tombstones: op delete, row null', async () => {
    const reader = await newReader();
    const article = await saveArticle(reader);
    const kept = await saveArticle(reader, { url: world.site.url('/baking') });
    const tag = await createTag(reader, 'Gone soon');
    const list = await createList(reader);
    await reader.post(`/lists/${list.id}/articles`, { articleId: kept.id });
    const otherList = await createList(reader, 'Other');
    await reader.post(`/lists/${otherList.id}/articles`, { articleId: article.id });
    await reader.post(`/lists/${otherList.id}/articles`, { articleId: kept.id });
    const highlight = await createHighlight(reader, kept.id);
    const articleHighlight = await createHighlight(reader, article.id, 'goes with its article');

    const tombstone = (entity: string, id: string) => ({
      seq: expect.any(Number),
      entity,
      id,
      op: 'delete',
      row: null,
    });

    expect(await changesOf(reader, () => reader.delete(`/highlights/${highlight.id}`))).toContainEqual(
      tombstone('highlight', highlight.id),
    );
    expect(await changesOf(reader, () => reader.delete(`/tags/${tag.id}`))).toEqual([
      tombstone('tag', tag.id),
    ]);

    const removal = await changesOf(reader, () =>
      reader.delete(`/lists/${otherList.id}/articles/${kept.id}`),
    );
    expect(removal).toContainEqual(tombstone('list_article', listArticleKey(otherList.id, kept.id)));

    const listDeletion = await changesOf(reader, () => reader.delete(`/lists/${list.id}`));
    expect(listDeletion).toContainEqual(tombstone('list', list.id));
    expect(listDeletion).toContainEqual(tombstone('list_article', listArticleKey(list.id, kept.id)));

    const articleDeletion = await changesOf(reader, () => reader.delete(`/articles/${article.id}`));
    expect(articleDeletion).toContainEqual(tombstone('article', article.id));
    expect(articleDeletion).toContainEqual(tombstone('highlight', articleHighlight.id));
    expect(articleDeletion).toContainEqual(
      tombstone('list_article', listArticleKey(otherList.id, article.id)),
    );
    for (const change of articleDeletion.filter((item) => item.op === 'delete'))
      expect(change.row).toBeNull();
  });

  it('orders changes by seq, and the cursor yields only newer changes', async () => {
    const reader = await newReader();
    const first = await createTag(reader, 'One');
    const whole = await pull(reader);
    expect(whole.hasMore).toBe(false);
    expect(whole.cursor).toBe(whole.changes.at(-1)?.seq);

    // Nothing new: the same cursor comes back with no changes.
    expect(await pull(reader, whole.cursor)).toEqual({ cursor: whole.cursor, hasMore: false, changes: [] });

    const second = await createTag(reader, 'Two');
    const list = await createList(reader);
    const newer = await pull(reader, whole.cursor);
    expect(newer.changes.map(summary)).toEqual([`upsert tag ${second.id}`, `upsert list ${list.id}`]);
    expect(newer.changes.every((change) => change.seq > whole.cursor)).toBe(true);
    expect(newer.changes.map(summary)).not.toContain(`upsert tag ${first.id}`);
    expect(newer.cursor).toBe(newer.changes.at(-1)?.seq);

    const all = await pull(reader);
    const seqs = all.changes.map((change) => change.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('pages with limit and hasMore, and the pages add up to the whole feed', async () => {
    const reader = await newReader();
    for (const name of ['a', 'b', 'c', 'd', 'e']) await createTag(reader, name);
    await createList(reader);
    const whole = await pull(reader);
    expect(whole.changes).toHaveLength(6);

    const paged: Change[] = [];
    const hasMores: boolean[] = [];
    let cursor = 0;
    for (;;) {
      const page = await pull(reader, cursor, 4);
      expect(page.changes.length).toBeLessThanOrEqual(4);
      paged.push(...page.changes);
      hasMores.push(page.hasMore);
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    expect(hasMores).toEqual([true, false]);
    expect(paged).toEqual(whole.changes);
    expect(cursor).toBe(whole.cursor);

    // A page that ends exactly at the last change says so.
    const exact = await pull(reader, 0, 6);
    expect(exact.hasMore).toBe(false);
    expect((await pull(reader, 0, 5)).hasMore).toBe(true);
  });

  it('refuses limits and cursors out of bounds with 400', async () => {
    const reader = await newReader();
    expect((await reader.get(`/sync/changes?limit=${CHANGES_MAX_LIMIT}`)).status).toBe(200);
    // A page of cards (a kilobyte each) may be longer; a page with bodies may not.
    expect((await reader.get(`/sync/changes?limit=${CARDS_MAX_LIMIT}&cards=true`)).status).toBe(200);
    const tooLong = await reader.get(`/sync/changes?limit=${CHANGES_MAX_LIMIT + 1}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ error: SERVER_ERRORS.changesLimitTooLarge });
    for (const query of [
      `limit=${CARDS_MAX_LIMIT}`,
      `limit=${CARDS_MAX_LIMIT + 1}&cards=true`,
      'limit=0',
      'limit=-5',
      'limit=many',
      'since=-1',
      'since=later',
    ]) {
      const answer = await reader.get(`/sync/changes?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
    expect((await reader.as(null).get('/sync/changes')).status).toBe(401);
  });

  it('never carries another user’s changes', async () => {
    const reader = await newReader();
    const stranger = await newReader();
    await createTag(reader, 'Mine');
    const theirs = [
      (await createTag(stranger, 'Theirs')).id,
      (await createList(stranger)).id,
      (await saveArticle(stranger)).id,
    ];
    await stranger.delete(`/tags/${theirs[0]}`);

    const text = JSON.stringify(await pull(reader));
    for (const id of theirs) expect(text).not.toContain(id);
    expect((await pull(reader)).changes).toHaveLength(1);
  });
});

describe('creates replayed with the same client id', () => {
  let reader: ApiClient;
  let stranger: ApiClient;
  let article: { id: string };

  beforeAll(async () => {
    reader = await newReader();
    stranger = await newReader();
    article = await saveArticle(reader);
  });

  const count = async (client: ApiClient, path: string, key: string) =>
    ((await client.get(path)).body[key] as unknown[]).length;

  const creates = () => [
    {
      entity: 'article',
      path: '/articles',
      countPath: '/articles',
      key: 'articles',
      // A distinct address per id: saving an address already in the library answers that article (200).
      body: (id: string) => ({ id, url: `${world.site.url('/astronomy')}?copy=${id}` }),
      changed: (id: string) => ({ id, url: `${world.site.url('/baking')}?copy=${id}` }),
      read: (id: string) => `/articles/${id}`,
    },
    {
      entity: 'tag',
      path: '/tags',
      countPath: '/tags',
      key: 'tags',
      body: (id: string) => ({ id, name: `Tag ${id.slice(-6)}` }),
      changed: (id: string) => ({ id, name: `Other ${id.slice(-6)}` }),
      read: null,
    },
    {
      entity: 'list',
      path: '/lists',
      countPath: '/lists',
      key: 'lists',
      body: (id: string) => ({ id, name: 'Replayed list' }),
      changed: (id: string) => ({ id, name: 'Another name' }),
      read: (id: string) => `/lists/${id}`,
    },
    {
      entity: 'highlight',
      path: '/highlights',
      countPath: '/highlights',
      key: 'highlights',
      body: (id: string) => ({
        id,
        articleId: article.id,
        highlightedText: 'replayed',
        positionStart: 1,
        positionEnd: 9,
      }),
      changed: (id: string) => ({
        id,
        articleId: article.id,
        highlightedText: 'different',
        positionStart: 2,
        positionEnd: 11,
      }),
      read: (id: string) => `/highlights/${id}`,
    },
  ];

  it('answers the same entity and creates nothing new, for every create', async () => {
    for (const create of creates()) {
      const id = newId();
      const first = await reader.post(create.path, create.body(id));
      expect(first.status, create.entity).toBe(201);
      const entity = first.body[create.entity];
      expect(entity.id).toBe(id);
      const rows = await count(reader, create.countPath, create.key);
      const cursor = await cursorNow(reader);

      const replay = await reader.post(create.path, create.body(id));
      expect(replay.status, create.entity).toBeLessThan(300);
      expect(replay.body).toEqual({ [create.entity]: entity });
      // Even a replay whose payload differs answers what the id made, unchanged.
      const changed = await reader.post(create.path, create.changed(id));
      expect(changed.body).toEqual({ [create.entity]: entity });

      expect(await count(reader, create.countPath, create.key), create.entity).toBe(rows);
      expect((await pull(reader, cursor)).changes, create.entity).toEqual([]);
    }
  });

  it('does not bring back what was deleted: a replay after the delete is 404', async () => {
    for (const create of creates()) {
      const id = newId();
      expect((await reader.post(create.path, create.body(id))).status).toBe(201);
      const deleted = await reader.delete(`${create.path}/${id}`);
      expect(deleted.status, create.entity).toBe(204);
      const rows = await count(reader, create.countPath, create.key);

      const replay = await reader.post(create.path, create.body(id));
      expect(replay.status, create.entity).toBe(404);
      expect(replay.body).toEqual({ error: expect.any(String) });
      expect(await count(reader, create.countPath, create.key), create.entity).toBe(rows);
      if (create.read) expect((await reader.get(create.read(id))).status).toBe(404);
    }
  });

  it('answers 409 when the id belongs to another user, and leaves their entity alone', async () => {
    const strangerArticle = await saveArticle(stranger);
    for (const create of creates()) {
      const id = newId();
      const body =
        create.entity === 'highlight'
          ? { ...create.body(id), articleId: strangerArticle.id }
          : create.body(id);
      const theirs = await stranger.post(create.path, body);
      expect(theirs.status, create.entity).toBe(201);

      const clash = await reader.post(create.path, create.body(id));
      expect(clash.status, create.entity).toBe(409);
      expect(clash.body).toEqual({ error: expect.any(String) });
      expect(JSON.stringify(clash.body)).not.toContain(id);
      if (create.read) {
        expect((await stranger.get(create.read(id))).body[create.entity]).toEqual(theirs.body[create.entity]);
      }
    }
  });

  it('refuses a client id that is not a UUID with 400', async () => {
    expect((await reader.post('/tags', { id: 'not-a-uuid', name: 'Odd' })).status).toBe(400);
    expect((await reader.post('/lists', { id: '../../etc', name: 'Odd' })).status).toBe(400);
  });
});

describe('writes replayed with an Idempotency-Key', () => {
  let reader: ApiClient;

  beforeAll(async () => {
    reader = await newReader();
  });

  const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

  it('answers a replayed PUT with its status and the article as it is now, and does not apply it again', async () => {
    const article = await saveArticle(reader);
    const key = newId();
    const first = await reader.put(`/articles/${article.id}`, { isFavorite: true }, withKey(key));
    expect(first.status).toBe(200);
    expect(first.body.article.is_favorite).toBe(true);
    await reader.put(`/articles/${article.id}`, { isFavorite: false });
    const cursor = await cursorNow(reader);

    const replay = await reader.put(`/articles/${article.id}`, { isFavorite: true }, withKey(key));
    expect(replay.status).toBe(200);
    // Only the status and the article's id are kept for a replay (no stored bodies): it reads the article now.
    expect(replay.body).toEqual((await reader.get(`/articles/${article.id}`)).body);
    expect((await reader.get(`/articles/${article.id}`)).body.article.is_favorite).toBe(false);
    expect((await pull(reader, cursor)).changes).toEqual([]);
  });

  it('answers a replayed DELETE with its stored 204 rather than 404', async () => {
    const tag = await createTag(reader, 'Deleted once');
    const key = newId();
    expect((await reader.delete(`/tags/${tag.id}`, withKey(key))).status).toBe(204);
    const replay = await reader.delete(`/tags/${tag.id}`, withKey(key));
    expect(replay.status).toBe(204);
    expect(replay.body).toBeNull();
    // Without the key the same call is a fresh one, and the tag is gone.
    expect((await reader.delete(`/tags/${tag.id}`)).status).toBe(404);
  });

  it('answers a replayed add-to-list with its status and the list as it is now, leaving a later removal in place', async () => {
    const article = await saveArticle(reader);
    const list = await createList(reader);
    const key = newId();
    const added = await reader.post(`/lists/${list.id}/articles`, { articleId: article.id }, withKey(key));
    expect(added.status).toBe(200);
    expect(added.body.list.article_count).toBe(1);
    expect((await reader.delete(`/lists/${list.id}/articles/${article.id}`)).status).toBe(200);

    const replay = await reader.post(`/lists/${list.id}/articles`, { articleId: article.id }, withKey(key));
    expect(replay.status).toBe(200);
    expect(replay.body.list).toEqual((await reader.get(`/lists/${list.id}`)).body.list);
    const now = await reader.get(`/lists/${list.id}`);
    expect(now.body.list.article_count).toBe(0);
    expect(now.body.articles).toEqual([]);
  });

  it('applies a keyed POST create once', async () => {
    const key = newId();
    const first = await reader.post('/lists', { name: 'Keyed' }, withKey(key));
    expect(first.status).toBe(201);
    const lists = (await reader.get('/lists')).body.lists.length;
    const replay = await reader.post('/lists', { name: 'Keyed' }, withKey(key));
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect((await reader.get('/lists')).body.lists).toHaveLength(lists);
  });

  it('remembers an error answer too', async () => {
    const key = newId();
    const missing = newId();
    const first = await reader.put(`/lists/${missing}`, { name: 'Nothing' }, withKey(key));
    expect(first.status).toBe(404);
    const replay = await reader.put(`/lists/${missing}`, { name: 'Nothing' }, withKey(key));
    expect(replay.status).toBe(404);
    expect(replay.body).toEqual(first.body);
  });

  it('refuses the same key on a different path or method with 400', async () => {
    const first = await createList(reader, 'First');
    const second = await createList(reader, 'Second');
    const key = newId();
    expect((await reader.put(`/lists/${first.id}`, { name: 'First, renamed' }, withKey(key))).status).toBe(
      200,
    );

    const elsewhere = await reader.put(`/lists/${second.id}`, { name: 'Second, renamed' }, withKey(key));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({ error: expect.any(String) });
    expect((await reader.get(`/lists/${second.id}`)).body.list.name).toBe('Second');

    expect((await reader.delete(`/lists/${first.id}`, withKey(key))).status).toBe(400);
    expect((await reader.get(`/lists/${first.id}`)).status).toBe(200);
  });

  it('keeps keys per user: another user’s identical key is a fresh request', async () => {
    const stranger = await newReader();
    const key = newId();
    const mine = await reader.post('/tags', { name: 'Mine only' }, withKey(key));
    const theirs = await stranger.post('/tags', { name: 'Theirs only' }, withKey(key));
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.tag.name).toBe('Theirs only');
    expect(theirs.body.tag.id).not.toBe(mine.body.tag.id);
    expect(JSON.stringify(theirs.body)).not.toContain('Mine only');
  });

  it('refuses a malformed key with 400', async () => {
    const tag = await createTag(reader, 'Short key');
    for (const key of ['short', 'has spaces in it', 'x'.repeat(129)]) {
      expect((await reader.put(`/tags/${tag.id}`, { name: 'Renamed' }, withKey(key))).status, key).toBe(400);
    }
    expect((await reader.get('/tags')).body.tags.map((item: { name: string }) => item.name)).toContain(
      'Short key',
    );
  });
});
