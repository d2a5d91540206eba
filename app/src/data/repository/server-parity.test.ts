// Every read of the repository answers what the server answers on the same data: once on the device that
// made the data (its writes synced), once on a second device that only pulled the change feed.
import {
  type ArticleListResponse,
  type ArticleResponse,
  type ArticleSearchResponse,
  type ArticlesQuery,
  type HighlightResponse,
  type HighlightsResponse,
  type HighlightStatsResponse,
  type HighlightsWithStatsResponse,
  type ListsResponse,
  type ListWithArticlesResponse,
  type TagArticlesResponse,
  type TagsResponse,
} from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDevice, type TestDevice } from '../testing/test-lectern';
import { serverReader, signedInDevice, startWorld, type World } from '../testing/server-fixture';
import type { Lectern } from '../lectern';

let world: World;
let writer: TestDevice;
let reader: TestDevice;
let get: <T>(path: string) => Promise<T>;

beforeAll(async () => {
  world = await startWorld();
  const signedIn = await signedInDevice(world);
  writer = signedIn;
  get = serverReader(world, signedIn.auth.token);
  const { articles, tags, lists, highlights, sync } = writer.lectern;

  const saved = [];
  for (const [path, tagNames] of [
    ['/gardening', ['Home', 'green']],
    ['/astronomy', ['science']],
    ['/baking', ['Home']],
    ['/cycling', []],
  ] as const) {
    saved.push((await articles.create({ url: world.site.url(path), tags: [...tagNames] })).article);
  }
  const [garden, astro, baking, cycling] = saved.map((article) => article.id) as [
    string,
    string,
    string,
    string,
  ];
  await sync.syncNow();
  await articles.update(garden, { isRead: true, isFavorite: true });
  await articles.update(astro, { isArchived: true });
  await articles.update(cycling, { isRead: true });
  const { tag } = await tags.create({ name: 'Travel' });
  await articles.addTag(cycling, { tagId: tag.id });
  await tags.create({ name: 'unused' });
  const { list } = await lists.create({ name: 'Weekend', description: 'For Saturday', isPublic: false });
  await lists.addArticle(list.id, { articleId: garden });
  await lists.addArticle(list.id, { articleId: baking });
  await lists.addArticle(list.id, { articleId: cycling, position: 0 });
  await lists.create({ name: 'Empty one' });
  for (const [articleId, text, start] of [
    [garden, 'winter vegetables like kale', 40],
    [garden, 'frost protection', 10],
    [baking, 'sourdough starter', 5],
  ] as const) {
    await highlights.create({
      articleId,
      highlightedText: text,
      contextBefore: 'before',
      contextAfter: 'after',
      positionStart: start,
      positionEnd: start + text.length,
      color: 'yellow',
    });
  }
  const result = await sync.syncNow();
  expect(result.status).toBe('synced');
  expect(await sync.hasUnsyncedWrites()).toBe(false);

  reader = createTestDevice({ baseUrl: world.server.url });
  reader.storage.setItem('token', signedIn.auth.token);
  expect((await reader.lectern.sync.syncNow()).status).toBe('synced');
});

afterAll(async () => {
  await writer?.lectern.close();
  await reader?.lectern.close();
  await world?.close();
});

const QUERIES: ArticlesQuery[] = [
  {},
  { archived: false },
  { archived: true },
  { archived: false, is_read: false },
  { archived: false, is_read: true },
  { archived: false, favorite: true },
  { tag_name: 'home' },
  { tag_name: 'Travel', archived: false },
  { tag_name: 'nothing' },
];

function queryString(query: ArticlesQuery): string {
  const params = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  return params.size > 0 ? `?${params.toString()}` : '';
}

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id).sort();

describe.each([
  ['the device that wrote the data', () => writer.lectern],
  ['a device that only pulled it', () => reader.lectern],
])('reads on %s', (_name, device: () => Lectern) => {
  it('GET /articles with every filter, stats included', async () => {
    for (const query of QUERIES) {
      expect(await device().articles.list(query)).toEqual(
        await get<ArticleListResponse>(`/articles${queryString(query)}`),
      );
    }
  });

  it('GET /articles/{id} with content', async () => {
    const { articles } = await get<ArticleListResponse>('/articles');
    for (const { id } of articles) {
      expect(await device().articles.get(id)).toEqual(await get<ArticleResponse>(`/articles/${id}`));
    }
  });

  it('GET /articles/search finds the same articles for plain word queries', async () => {
    for (const q of [
      'gardening',
      'garden',
      'kale win',
      'saturn r',
      'k',
      'saturn rings',
      'zurich',
      'CAFÉ',
      'ada',
      'astronomy',
      'home',
      'travel',
      'prose',
      'nothingmatches',
      'the',
      '',
    ]) {
      const local = await device().articles.search(q);
      const server = await get<ArticleSearchResponse>(`/articles/search?q=${encodeURIComponent(q)}`);
      expect(ids(local.articles), q).toEqual(ids(server.articles));
      expect([...local.articles].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [...server.articles].sort((a, b) => a.id.localeCompare(b.id)),
      );
    }
  });

  it('GET /tags and /tags/{id}/articles', async () => {
    const server = await get<TagsResponse>('/tags');
    expect(await device().tags.list()).toEqual(server);
    for (const { id } of server.tags) {
      expect(await device().tags.articles(id)).toEqual(
        await get<TagArticlesResponse>(`/tags/${id}/articles`),
      );
    }
  });

  it('GET /lists and /lists/{id}', async () => {
    const server = await get<ListsResponse>('/lists');
    expect(server.lists).toHaveLength(2);
    expect(await device().lists.list()).toEqual(server);
    for (const { id } of server.lists) {
      expect(await device().lists.get(id)).toEqual(await get<ListWithArticlesResponse>(`/lists/${id}`));
    }
  });

  it('GET /highlights, by article, by id, recent, stats and search', async () => {
    const all = await get<HighlightsWithStatsResponse>('/highlights');
    expect(all.highlights).toHaveLength(3);
    expect(await device().highlights.list()).toEqual(all);
    expect(await device().highlights.stats()).toEqual(await get<HighlightStatsResponse>('/highlights/stats'));
    for (const limit of [1, 2, 10]) {
      expect(await device().highlights.recent(limit)).toEqual(
        await get<HighlightsResponse>(`/highlights/recent?limit=${limit}`),
      );
    }
    for (const { id, article_id } of all.highlights) {
      expect(await device().highlights.get(id)).toEqual(await get<HighlightResponse>(`/highlights/${id}`));
      expect(await device().highlights.byArticle(article_id)).toEqual(
        await get<HighlightsResponse>(`/highlights/article/${article_id}`),
      );
    }
    for (const q of ['kale', 'frost prot', 'sourdough', 'bread', 'winter gardening', 'nothing']) {
      const local = await device().highlights.search(q);
      const server = await get<HighlightsResponse>(`/highlights/search?q=${encodeURIComponent(q)}`);
      expect(ids(local.highlights), q).toEqual(ids(server.highlights));
    }
  });

  it("computes spec section 9's analytics of the data above, as worked out by hand", async () => {
    const analytics = await device().analytics(new Date());
    // Home is on gardening and baking; green, science and Travel on one article each (ties by name);
    // 'unused' is on none and stays out.
    expect(analytics.topTags).toEqual([
      { name: 'Home', article_count: 2 },
      { name: 'green', article_count: 1 },
      { name: 'science', article_count: 1 },
      { name: 'Travel', article_count: 1 },
    ]);
    // All four articles were saved just now, and two of them (gardening, cycling) read today.
    expect(analytics.monthlySaved.map(({ count }) => count)).toEqual([0, 0, 0, 0, 0, 4]);
    expect(analytics.thisMonth).toBe(4);
    expect(analytics.streak).toBe(1);
  });
});
