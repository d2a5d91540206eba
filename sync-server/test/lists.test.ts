// /api/lists against a real server: shapes, order, sharing, and another user's ids.
import { newId, SERVER_ERRORS, type Change } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagesSettled, signUp, type ApiClient } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;
let reader: ApiClient;
let readerUser: { id: string; email: string; username: string };
let stranger: ApiClient;

beforeAll(async () => {
  world = await startWorld();
  const signedUp = await signUp(world.api, { username: 'Lena Lister' });
  reader = signedUp.client;
  readerUser = signedUp.user;
  stranger = (await signUp(world.api)).client;
});

afterAll(async () => {
  await world?.close();
});

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

const LIST_FIELDS = [
  'article_count',
  'created_at',
  'description',
  'id',
  'is_public',
  'name',
  'share_id',
  'updated_at',
];

/** Each call saves a new article: a distinct address (the fixture site ignores the query). */
async function saveArticle(client: ApiClient, path = '/gardening', tags?: string[]): Promise<string> {
  const answer = await client.post('/articles', { url: `${world.site.url(path)}?copy=${newId()}`, tags });
  expect(answer.status).toBe(201);
  return answer.body.article.id;
}

async function createList(client: ApiClient, body: Record<string, unknown> = {}) {
  const answer = await client.post('/lists', { name: 'Weekend reading', ...body });
  expect(answer.status).toBe(201);
  return answer.body.list;
}

async function articleOrder(client: ApiClient, listId: string): Promise<string[]> {
  const answer = await client.get(`/lists/${listId}`);
  expect(answer.status).toBe(200);
  return answer.body.articles.map((article: { id: string }) => article.id);
}

async function allChanges(client: ApiClient) {
  const changes: Change[] = [];
  let cursor = 0;
  for (;;) {
    const page = await client.get(`/sync/changes?since=${cursor}&limit=1000`);
    changes.push(...page.body.changes);
    cursor = page.body.cursor;
    if (!page.body.hasMore) return changes;
  }
}

/** Where the change feed says each article of the list sits now. */
async function positionsInFeed(client: ApiClient, listId: string): Promise<Map<string, number>> {
  const places = new Map<string, number>();
  for (const change of await allChanges(client)) {
    if (change.entity !== 'list_article' || !change.id.startsWith(`${listId}:`)) continue;
    const articleId = change.id.slice(listId.length + 1);
    if (change.op === 'delete' || !change.row || !('position' in change.row)) places.delete(articleId);
    else places.set(articleId, change.row.position);
  }
  return places;
}

describe('creating, reading, updating and deleting lists', () => {
  it('creates a list that is public by default and answers {list} with every field', async () => {
    const answer = await reader.post('/lists', { name: '  Weekend reading  ', description: 'Long reads' });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body)).toEqual(['list']);
    expect(Object.keys(answer.body.list).sort()).toEqual(LIST_FIELDS);
    expect(answer.body.list).toEqual({
      id: expect.any(String),
      name: 'Weekend reading',
      description: 'Long reads',
      is_public: true,
      share_id: expect.any(String),
      article_count: 0,
      created_at: ISO,
      updated_at: ISO,
    });
  });

  it('keeps a list private when asked, and takes a client id', async () => {
    const id = newId();
    const list = await createList(reader, { id, name: 'Private notes', isPublic: false, description: null });
    expect(list).toMatchObject({ id, is_public: false, description: null });
  });

  it('lists the caller’s lists as {lists} with their article_count', async () => {
    const list = await createList(reader, { name: 'Counted' });
    const first = await saveArticle(reader);
    const second = await saveArticle(reader, '/baking');
    await reader.post(`/lists/${list.id}/articles`, { articleId: first });
    await reader.post(`/lists/${list.id}/articles`, { articleId: second });

    const answer = await reader.get('/lists');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['lists']);
    const counted = answer.body.lists.find((item: { id: string }) => item.id === list.id);
    expect(Object.keys(counted).sort()).toEqual(LIST_FIELDS);
    expect(counted.article_count).toBe(2);
    const strangers = await stranger.get('/lists');
    expect(strangers.body.lists.some((item: { id: string }) => item.id === list.id)).toBe(false);
  });

  it('answers one list as {list, articles} with article summaries in list order', async () => {
    const list = await createList(reader);
    const articleId = await saveArticle(reader, '/astronomy', ['space']);
    await reader.post(`/lists/${list.id}/articles`, { articleId });

    const answer = await reader.get(`/lists/${list.id}`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['articles', 'list']);
    expect(answer.body.list).toMatchObject({ id: list.id, article_count: 1 });
    expect(answer.body.articles).toHaveLength(1);
    const [article] = answer.body.articles;
    expect(article).toMatchObject({ id: articleId, title: 'Observing Saturn Tonight', tags: ['space'] });
    // Summaries leave the article body out, as GET /articles does.
    expect(article).not.toHaveProperty('content');
  });

  it('updates name, description and visibility, answering {list}', async () => {
    const list = await createList(reader, { description: 'before' });
    const answer = await reader.put(`/lists/${list.id}`, {
      name: 'Renamed',
      description: '',
      isPublic: false,
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['list']);
    expect(answer.body.list).toEqual({
      ...list,
      name: 'Renamed',
      description: null,
      is_public: false,
      updated_at: ISO,
    });
    const onlyName = await reader.put(`/lists/${list.id}`, { name: 'Renamed again' });
    expect(onlyName.body.list).toMatchObject({ name: 'Renamed again', description: null, is_public: false });
  });

  it('deletes a list with 204, after which it is 404', async () => {
    const list = await createList(reader);
    const articleId = await saveArticle(reader);
    await reader.post(`/lists/${list.id}/articles`, { articleId });

    const answer = await reader.delete(`/lists/${list.id}`);
    expect(answer.status).toBe(204);
    expect((await reader.get(`/lists/${list.id}`)).status).toBe(404);
    expect((await reader.delete(`/lists/${list.id}`)).status).toBe(404);
    // The article itself stays: only its place in the list went.
    expect((await reader.get(`/articles/${articleId}`)).status).toBe(200);
  });

  it('refuses a list without a name', async () => {
    expect((await reader.post('/lists', { name: '   ' })).status).toBe(400);
    expect((await reader.post('/lists', {})).status).toBe(400);
    // The text the device answers for the same write offline (shared-schema's FIELD_ERRORS).
    expect((await reader.post('/lists', { name: '\t\n' })).body).toEqual({ error: 'Please enter a name' });
  });
});

describe('the articles of a list', () => {
  it('adds at the end without a position, and at the given position with one', async () => {
    const list = await createList(reader);
    const [a, b, c, d] = [
      await saveArticle(reader, '/gardening'),
      await saveArticle(reader, '/astronomy'),
      await saveArticle(reader, '/baking'),
      await saveArticle(reader, '/cycling'),
    ];
    const added = await reader.post(`/lists/${list.id}/articles`, { articleId: a });
    expect(added.status).toBe(200);
    expect(Object.keys(added.body)).toEqual(['list']);
    expect(added.body.list).toMatchObject({ id: list.id, article_count: 1 });

    await reader.post(`/lists/${list.id}/articles`, { articleId: b });
    await reader.post(`/lists/${list.id}/articles`, { articleId: c, position: 0 });
    await reader.post(`/lists/${list.id}/articles`, { articleId: d, position: 2 });
    expect(await articleOrder(reader, list.id)).toEqual([c, a, d, b]);

    // Positions are kept as 0..n-1 in that order (the feed carries each place).
    const positions = await positionsInFeed(reader, list.id);
    expect(Object.fromEntries(positions)).toEqual({ [c]: 0, [a]: 1, [d]: 2, [b]: 3 });
  });

  it('puts a position past the end at the end', async () => {
    const list = await createList(reader);
    const a = await saveArticle(reader);
    const b = await saveArticle(reader, '/baking');
    await reader.post(`/lists/${list.id}/articles`, { articleId: a });
    await reader.post(`/lists/${list.id}/articles`, { articleId: b, position: 99 });
    expect(await articleOrder(reader, list.id)).toEqual([a, b]);
  });

  it('treats adding an article twice as a no-op', async () => {
    const list = await createList(reader);
    const a = await saveArticle(reader);
    const b = await saveArticle(reader, '/baking');
    await reader.post(`/lists/${list.id}/articles`, { articleId: a });
    await reader.post(`/lists/${list.id}/articles`, { articleId: b });

    const again = await reader.post(`/lists/${list.id}/articles`, { articleId: a, position: 1 });
    expect(again.status).toBe(200);
    expect(again.body.list.article_count).toBe(2);
    expect(await articleOrder(reader, list.id)).toEqual([a, b]);
  });

  it('removes an article and closes the gap in the order', async () => {
    const list = await createList(reader);
    const ids = [
      await saveArticle(reader),
      await saveArticle(reader, '/astronomy'),
      await saveArticle(reader, '/baking'),
    ];
    for (const articleId of ids) await reader.post(`/lists/${list.id}/articles`, { articleId });

    const removed = await reader.delete(`/lists/${list.id}/articles/${ids[0]}`);
    expect(removed.status).toBe(200);
    expect(Object.keys(removed.body)).toEqual(['list']);
    expect(removed.body.list.article_count).toBe(2);
    expect(await articleOrder(reader, list.id)).toEqual([ids[1], ids[2]]);
    expect(Object.fromEntries(await positionsInFeed(reader, list.id))).toEqual({
      [ids[1]!]: 0,
      [ids[2]!]: 1,
    });

    // Removing what isn't in the list is 404, and so is an article that doesn't exist.
    expect((await reader.delete(`/lists/${list.id}/articles/${ids[0]}`)).status).toBe(404);
    expect((await reader.delete(`/lists/${list.id}/articles/${newId()}`)).status).toBe(404);
  });

  it('reorders to the given permutation, answering {list, articles}', async () => {
    const list = await createList(reader);
    const ids = [
      await saveArticle(reader),
      await saveArticle(reader, '/astronomy'),
      await saveArticle(reader, '/baking'),
    ];
    for (const articleId of ids) await reader.post(`/lists/${list.id}/articles`, { articleId });
    const [a, b, c] = ids as [string, string, string];

    const answer = await reader.put(`/lists/${list.id}/reorder`, { articles: [c, a, b] });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['articles', 'list']);
    expect(answer.body.articles.map((article: { id: string }) => article.id)).toEqual([c, a, b]);
    expect(await articleOrder(reader, list.id)).toEqual([c, a, b]);
    expect(Object.fromEntries(await positionsInFeed(reader, list.id))).toEqual({ [c]: 0, [a]: 1, [b]: 2 });
  });

  it('refuses a new order that is not a permutation of the list with 400', async () => {
    const list = await createList(reader);
    const ids = [await saveArticle(reader), await saveArticle(reader, '/astronomy')];
    for (const articleId of ids) await reader.post(`/lists/${list.id}/articles`, { articleId });
    const [a, b] = ids as [string, string];
    const outsider = await saveArticle(reader, '/baking');

    for (const articles of [[a], [a, a], [a, b, outsider], [a, outsider], [b, a, a], []]) {
      const answer = await reader.put(`/lists/${list.id}/reorder`, { articles });
      expect(answer.status, JSON.stringify(articles)).toBe(400);
      expect(answer.body).toEqual({ error: SERVER_ERRORS.reorderMismatch });
    }
    expect(await articleOrder(reader, list.id)).toEqual([a, b]);
  });

  it('drops an article from its lists when the article is deleted', async () => {
    const list = await createList(reader);
    const a = await saveArticle(reader);
    const b = await saveArticle(reader, '/baking');
    await reader.post(`/lists/${list.id}/articles`, { articleId: a });
    await reader.post(`/lists/${list.id}/articles`, { articleId: b });
    expect((await reader.delete(`/articles/${a}`)).status).toBe(204);

    const answer = await reader.get(`/lists/${list.id}`);
    expect(answer.body.list.article_count).toBe(1);
    expect(answer.body.articles.map((article: { id: string }) => article.id)).toEqual([b]);
  });
});

describe('rotating a share link', () => {
  it('gives the list a new share id: the old link answers 404, the new one the list', async () => {
    const list = await createList(reader, { name: 'Leaked' });
    const cursor = (await reader.get('/sync/changes?limit=1000')).body.cursor;
    const rotated = await reader.post(`/lists/${list.id}/share-link/rotate`);
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body)).toEqual(['list']);
    expect(rotated.body.list).toMatchObject({ id: list.id, name: 'Leaked', is_public: true });
    expect(rotated.body.list.share_id).not.toBe(list.share_id);
    expect(rotated.body.list.share_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await world.api.get(`/lists/public/${list.share_id}`)).status).toBe(404);
    const shared = await world.api.get(`/lists/public/${rotated.body.list.share_id}`);
    expect(shared.status).toBe(200);
    expect(shared.body.list.name).toBe('Leaked');
    expect((await reader.get(`/lists/${list.id}`)).body.list.share_id).toBe(rotated.body.list.share_id);
    // Every device learns the new link from the feed.
    const feed = (await reader.get(`/sync/changes?since=${cursor}`)).body.changes as Change[];
    expect(feed).toEqual([expect.objectContaining({ entity: 'list', id: list.id, row: rotated.body.list })]);
  });

  it('is 404 for another user’s list and for an unknown one, and changes nothing', async () => {
    const list = await createList(reader, { name: 'Mine' });
    const stranger = (await signUp(world.api)).client;
    const refused = await stranger.post(`/lists/${list.id}/share-link/rotate`);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ error: SERVER_ERRORS.listNotFound });
    expect((await stranger.post(`/lists/${newId()}/share-link/rotate`)).status).toBe(404);
    expect((await world.api.post(`/lists/${list.id}/share-link/rotate`)).status).toBe(401);
    expect((await world.api.get(`/lists/public/${list.share_id}`)).status).toBe(200);
  });
});

describe('the public view of a shared list', () => {
  it('answers {list, articles} by share id with only what the public page shows', async () => {
    const list = await createList(reader, { name: 'Shared garden', description: 'For friends' });
    const articleId = await saveArticle(reader, '/gardening', ['plants']);
    await reader.post(`/lists/${list.id}/articles`, { articleId });
    // The card shows the article's picture as its owner has it once the images are archived (or given up).
    const { image_url: imageUrl } = await imagesSettled(reader, articleId);

    // No sign-in needed.
    const answer = await world.api.get(`/lists/public/${list.share_id}`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['articles', 'list']);
    expect(answer.body.list).toEqual({
      name: 'Shared garden',
      description: 'For friends',
      share_id: list.share_id,
      article_count: 1,
      // The email's local part, never the profile name (a Google account's full name).
      owner_username: readerUser.email.split('@')[0],
      created_at: list.created_at,
    });
    expect(answer.body.articles).toHaveLength(1);
    expect(answer.body.articles[0]).toEqual({
      id: articleId,
      url: expect.stringContaining(world.site.url('/gardening')),
      title: 'Winter Gardening Guide',
      description: 'How to keep a vegetable garden going through the cold months.',
      author: expect.any(String),
      image_url: imageUrl,
      reading_time: expect.any(Number),
      tags: ['plants'],
      created_at: ISO,
    });

    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(readerUser.email);
    expect(text).not.toContain(readerUser.id);
    expect(text).not.toContain(list.id);
    expect(text).not.toMatch(/email|user_id|is_read|is_favorite|content/);
  });

  it('is the same for a signed-in stranger', async () => {
    const list = await createList(reader);
    const answer = await stranger.get(`/lists/public/${list.share_id}`);
    expect(answer.status).toBe(200);
    expect(answer.body.list.owner_username).toBe(readerUser.email.split('@')[0]);
    expect(JSON.stringify(answer.body)).not.toContain('Lena Lister');
  });

  it('answers 404 for a private list and for an unknown share id', async () => {
    const list = await createList(reader, { isPublic: false });
    const hidden = await world.api.get(`/lists/public/${list.share_id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: SERVER_ERRORS.listNotFound });

    const shared = await createList(reader);
    await reader.put(`/lists/${shared.id}`, { isPublic: false });
    expect((await world.api.get(`/lists/public/${shared.share_id}`)).status).toBe(404);
    await reader.put(`/lists/${shared.id}`, { isPublic: true });
    expect((await world.api.get(`/lists/public/${shared.share_id}`)).status).toBe(200);

    expect((await world.api.get('/lists/public/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    // The list id is not a share id.
    expect((await world.api.get(`/lists/public/${shared.id}`)).status).toBe(404);
  });

  it('gives every list an unguessable share id: 128 random bits or more, never repeated', async () => {
    const created = await Promise.all(
      Array.from({ length: 60 }, (_, index) => createList(stranger, { name: `List ${index}` })),
    );
    const shareIds = created.map((list: { share_id: string }) => list.share_id);
    for (const shareId of shareIds) expect(shareId).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(new Set(shareIds).size).toBe(shareIds.length);
    // Not derived from the list id or a counter.
    for (const list of created) expect(list.id).not.toContain(list.share_id);
  });
});

describe('another user’s ids are 404 on every list route', () => {
  let foreignList: { id: string; share_id: string };
  let foreignArticle: string;
  let ownList: { id: string };
  let ownArticle: string;

  beforeAll(async () => {
    foreignList = await createList(stranger, { name: 'Not yours' });
    foreignArticle = await saveArticle(stranger);
    await stranger.post(`/lists/${foreignList.id}/articles`, { articleId: foreignArticle });
    ownList = await createList(reader);
    ownArticle = await saveArticle(reader);
    await reader.post(`/lists/${ownList.id}/articles`, { articleId: ownArticle });
  });

  it('hides another user’s list on GET, PUT, DELETE, add, remove and reorder', async () => {
    const calls = [
      () => reader.get(`/lists/${foreignList.id}`),
      () => reader.put(`/lists/${foreignList.id}`, { name: 'Taken over' }),
      () => reader.delete(`/lists/${foreignList.id}`),
      () => reader.post(`/lists/${foreignList.id}/articles`, { articleId: ownArticle }),
      () => reader.delete(`/lists/${foreignList.id}/articles/${foreignArticle}`),
      () => reader.put(`/lists/${foreignList.id}/reorder`, { articles: [foreignArticle] }),
    ];
    for (const call of calls) {
      const answer = await call();
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: SERVER_ERRORS.listNotFound });
    }
    const untouched = await stranger.get(`/lists/${foreignList.id}`);
    expect(untouched.body.list).toMatchObject({ name: 'Not yours', article_count: 1 });
    expect(untouched.body.articles.map((article: { id: string }) => article.id)).toEqual([foreignArticle]);
  });

  it('refuses adding another user’s article to one’s own list', async () => {
    const answer = await reader.post(`/lists/${ownList.id}/articles`, { articleId: foreignArticle });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.articleNotFound });
    expect(await articleOrder(reader, ownList.id)).toEqual([ownArticle]);
  });

  it('answers 404 for unknown list ids too', async () => {
    expect((await reader.get(`/lists/${newId()}`)).status).toBe(404);
    expect((await reader.put(`/lists/${newId()}`, { name: 'x' })).status).toBe(404);
  });

  it('needs a sign-in for every route but the public view', async () => {
    const anonymous = reader.as(null);
    expect((await anonymous.get('/lists')).status).toBe(401);
    expect((await anonymous.post('/lists', { name: 'x' })).status).toBe(401);
    expect((await anonymous.get(`/lists/${ownList.id}`)).status).toBe(401);
  });
});
