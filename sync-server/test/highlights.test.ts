// /api/highlights against a real server: shapes, order, stats, full-text search and another user's ids.
import {
  HIGHLIGHT_COLOR,
  newId,
  RECENT_HIGHLIGHTS_DEFAULT_LIMIT,
  SERVER_ERRORS,
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

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

const HIGHLIGHT_FIELDS = [
  'article_id',
  'article_image',
  'article_title',
  'color',
  'context_after',
  'context_before',
  'created_at',
  'highlighted_text',
  'id',
  'position_end',
  'position_start',
  'updated_at',
];

async function newReader(): Promise<ApiClient> {
  return (await signUp(world.api)).client;
}

async function saveArticle(client: ApiClient, path = '/gardening'): Promise<string> {
  const answer = await client.post('/articles', { url: world.site.url(path) });
  expect(answer.status).toBe(201);
  return answer.body.article.id;
}

async function highlight(
  client: ApiClient,
  articleId: string,
  text: string,
  positionStart = 0,
  extra: object = {},
) {
  const answer = await client.post('/highlights', {
    articleId,
    highlightedText: text,
    positionStart,
    positionEnd: positionStart + text.length,
    ...extra,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.highlight;
}

const idsOf = (highlights: { id: string }[]) => highlights.map((item) => item.id);

describe('creating and reading highlights', () => {
  let reader: ApiClient;
  let gardening: string;
  /** The article's picture once its archiving settled (the fixture site's picture is missing: none then). */
  let gardeningImage: string | null;

  beforeAll(async () => {
    reader = await newReader();
    gardening = await saveArticle(reader);
    // The archiving job writes the article's image once more: a highlight made after it shows what it left.
    gardeningImage = (await imagesSettled(reader, gardening)).image_url;
  });

  it('creates a highlight, answering {highlight} with every field', async () => {
    const answer = await reader.post('/highlights', {
      articleId: gardening,
      highlightedText: 'kale survives the frost',
      contextBefore: 'In winter, ',
      contextAfter: ' with ease.',
      positionStart: 120,
      positionEnd: 143,
    });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body)).toEqual(['highlight']);
    expect(Object.keys(answer.body.highlight).sort()).toEqual(HIGHLIGHT_FIELDS);
    expect(answer.body.highlight).toEqual({
      id: expect.any(String),
      article_id: gardening,
      highlighted_text: 'kale survives the frost',
      context_before: 'In winter, ',
      context_after: ' with ease.',
      position_start: 120,
      position_end: 143,
      color: 'yellow',
      created_at: ISO,
      updated_at: ISO,
      article_title: 'Winter Gardening Guide',
      article_image: gardeningImage,
    });

    const one = await reader.get(`/highlights/${answer.body.highlight.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ highlight: answer.body.highlight });
  });

  it('defaults the context to empty text and keeps a client id', async () => {
    const id = newId();
    const created = await highlight(reader, gardening, 'compost', 5, { id });
    expect(created).toMatchObject({ id, context_before: '', context_after: '' });
  });

  it('always stores yellow, whatever colour is sent', async () => {
    const created = await highlight(reader, gardening, 'frost protection', 300, { color: 'green' });
    expect(created.color).toBe(HIGHLIGHT_COLOR);
    expect((await reader.get(`/highlights/${created.id}`)).body.highlight.color).toBe('yellow');
    const updated = await reader.put(`/highlights/${created.id}`, { color: 'blue' });
    expect(updated.status).toBe(200);
    expect(updated.body.highlight.color).toBe('yellow');
  });

  it('refuses a highlight that ends before it starts, on create and on update', async () => {
    const refused = await reader.post('/highlights', {
      articleId: gardening,
      highlightedText: 'backwards',
      positionStart: 50,
      positionEnd: 40,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: expect.any(String) });

    const created = await highlight(reader, gardening, 'winter vegetables', 400);
    expect((await reader.put(`/highlights/${created.id}`, { positionEnd: 399 })).status).toBe(400);
    expect((await reader.put(`/highlights/${created.id}`, { positionStart: 500 })).status).toBe(400);
    expect((await reader.get(`/highlights/${created.id}`)).body.highlight).toMatchObject({
      position_start: 400,
      position_end: 417,
    });
    // A zero-length range is not "before".
    expect((await reader.put(`/highlights/${created.id}`, { positionStart: 417 })).status).toBe(200);
  });

  it('refuses an empty highlight or a missing article id with 400', async () => {
    expect(
      (
        await reader.post('/highlights', {
          articleId: gardening,
          highlightedText: '',
          positionStart: 0,
          positionEnd: 0,
        })
      ).status,
    ).toBe(400);
    expect(
      (await reader.post('/highlights', { highlightedText: 'text', positionStart: 0, positionEnd: 4 }))
        .status,
    ).toBe(400);
  });

  it('refuses a highlight under 3 characters after trimming, on create and on update, and stores nothing', async () => {
    // An emoji is one character, as the schema's lengths count them.
    for (const text of [' ab ', 'ab', '  \n a \t ', '   ', '', '😀a']) {
      const refused = await reader.post('/highlights', {
        articleId: gardening,
        highlightedText: text,
        positionStart: 10,
        positionEnd: 10 + text.length,
      });
      expect(refused.status, JSON.stringify(text)).toBe(400);
      expect(refused.body).toEqual({ error: SERVER_ERRORS.highlightTooShort });
    }
    const before = (await reader.get(`/highlights/article/${gardening}`)).body.highlights.length;
    const kept = await highlight(reader, gardening, ' abc ', 600);
    expect(kept.highlighted_text).toBe(' abc ');
    const refused = await reader.put(`/highlights/${kept.id}`, { highlightedText: ' ab ' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: SERVER_ERRORS.highlightTooShort });
    expect((await reader.get(`/highlights/${kept.id}`)).body.highlight.highlighted_text).toBe(' abc ');
    expect((await reader.get(`/highlights/article/${gardening}`)).body.highlights.length).toBe(before + 1);
  });

  it("applies the 3-character rule in the request's schema, before anything is looked up", async () => {
    const unknown = await reader.post('/highlights', {
      articleId: 'no-such-article',
      highlightedText: ' ab ',
      positionStart: 0,
      positionEnd: 4,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: SERVER_ERRORS.highlightTooShort });
    const tooLong = await reader.post('/highlights', {
      articleId: gardening,
      highlightedText: 'x'.repeat(20_001),
      positionStart: 0,
      positionEnd: 20_001,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).not.toBe(SERVER_ERRORS.highlightTooShort);
  });

  it('lists an article’s highlights as {highlights}, ordered by position', async () => {
    const articleId = await saveArticle(reader, '/astronomy');
    const late = await highlight(reader, articleId, 'rings of ice', 200);
    const early = await highlight(reader, articleId, 'a small telescope', 10);
    const middle = await highlight(reader, articleId, 'the ringed planet', 90);

    const answer = await reader.get(`/highlights/article/${articleId}`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['highlights']);
    expect(idsOf(answer.body.highlights)).toEqual([early.id, middle.id, late.id]);
    expect(answer.body.highlights[0]).toEqual(early);

    const empty = await reader.get(`/highlights/article/${await saveArticle(reader, '/baking')}`);
    expect(empty.body).toEqual({ highlights: [] });

    const article = await reader.get(`/articles/${articleId}`);
    expect(article.body.article.highlights_count).toBe(3);
  });

  it('updates text, context and positions, answering {highlight}', async () => {
    const created = await highlight(reader, gardening, 'old words', 600);
    const answer = await reader.put(`/highlights/${created.id}`, {
      highlightedText: 'new words here',
      contextBefore: 'before ',
      contextAfter: ' after',
      positionStart: 610,
      positionEnd: 624,
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['highlight']);
    expect(answer.body.highlight).toEqual({
      ...created,
      highlighted_text: 'new words here',
      context_before: 'before ',
      context_after: ' after',
      position_start: 610,
      position_end: 624,
      updated_at: ISO,
    });
    const partial = await reader.put(`/highlights/${created.id}`, { contextAfter: 'only this' });
    expect(partial.body.highlight).toMatchObject({
      highlighted_text: 'new words here',
      context_after: 'only this',
    });
    expect((await reader.get(`/highlights/${created.id}`)).body.highlight).toEqual(partial.body.highlight);
  });

  it('deletes with 204, after which the highlight is 404', async () => {
    const created = await highlight(reader, gardening, 'short-lived', 700);
    expect((await reader.delete(`/highlights/${created.id}`)).status).toBe(204);
    const gone = await reader.get(`/highlights/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: SERVER_ERRORS.highlightNotFound });
    expect((await reader.delete(`/highlights/${created.id}`)).status).toBe(404);
    expect((await reader.put(`/highlights/${created.id}`, { highlightedText: 'back' })).status).toBe(404);
  });
});

describe('all highlights, recent highlights and stats', () => {
  let reader: ApiClient;
  let created: { id: string; created_at: string }[];

  beforeAll(async () => {
    reader = await newReader();
    const articles = [
      await saveArticle(reader),
      await saveArticle(reader, '/astronomy'),
      await saveArticle(reader, '/baking'),
    ];
    created = [];
    for (let index = 0; index < 12; index += 1) {
      created.push(await highlight(reader, articles[index % 2]!, `passage number ${index}`, index * 10));
      // Spaces the creation times so "newest first" has one right answer.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
  });

  it('answers {highlights, stats}: every highlight, newest first, with the stats', async () => {
    const answer = await reader.get('/highlights');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['highlights', 'stats']);
    expect(idsOf(answer.body.highlights)).toEqual(idsOf([...created].reverse()));
    expect(answer.body.stats).toEqual({
      total_highlights: 12,
      articles_with_highlights: 2,
      highlights_this_week: 12,
    });
  });

  it('answers {stats} from /highlights/stats', async () => {
    const answer = await reader.get('/highlights/stats');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      stats: { total_highlights: 12, articles_with_highlights: 2, highlights_this_week: 12 },
    });
  });

  it('answers the 10 newest by default and honours ?limit=', async () => {
    const newestFirst = idsOf([...created].reverse());
    const answer = await reader.get('/highlights/recent');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['highlights']);
    expect(RECENT_HIGHLIGHTS_DEFAULT_LIMIT).toBe(10);
    expect(idsOf(answer.body.highlights)).toEqual(newestFirst.slice(0, 10));
    expect(Object.keys(answer.body.highlights[0]).sort()).toEqual(HIGHLIGHT_FIELDS);

    expect(idsOf((await reader.get('/highlights/recent?limit=3')).body.highlights)).toEqual(
      newestFirst.slice(0, 3),
    );
    expect(idsOf((await reader.get('/highlights/recent?limit=50')).body.highlights)).toEqual(newestFirst);
    for (const limit of ['0', '-1', '101', 'ten']) {
      expect((await reader.get(`/highlights/recent?limit=${limit}`)).status, limit).toBe(400);
    }
  });

  it('starts from zero for a new reader', async () => {
    const fresh = await newReader();
    expect((await fresh.get('/highlights')).body).toEqual({
      highlights: [],
      stats: { total_highlights: 0, articles_with_highlights: 0, highlights_this_week: 0 },
    });
    expect((await fresh.get('/highlights/recent')).body).toEqual({ highlights: [] });
  });
});

describe('deleting an article', () => {
  it('removes its highlights, from every view and from the stats', async () => {
    const reader = await newReader();
    const doomed = await saveArticle(reader);
    const kept = await saveArticle(reader, '/baking');
    const gone = [
      await highlight(reader, doomed, 'compost heap'),
      await highlight(reader, doomed, 'frost cloth', 40),
    ];
    const stays = await highlight(reader, kept, 'sourdough starter');

    expect((await reader.delete(`/articles/${doomed}`)).status).toBe(204);
    for (const { id } of gone) expect((await reader.get(`/highlights/${id}`)).status).toBe(404);
    expect(idsOf((await reader.get('/highlights')).body.highlights)).toEqual([stays.id]);
    expect((await reader.get('/highlights/stats')).body.stats).toEqual({
      total_highlights: 1,
      articles_with_highlights: 1,
      highlights_this_week: 1,
    });
    expect((await reader.get('/highlights/search?q=compost')).body).toEqual({ highlights: [] });
    expect((await reader.get(`/highlights/article/${doomed}`)).status).toBe(404);
  });
});

describe('searching highlights', () => {
  let reader: ApiClient;
  let kale: { id: string };
  let rings: { id: string };
  let cafe: { id: string };

  beforeAll(async () => {
    reader = await newReader();
    const gardening = await saveArticle(reader);
    const astronomy = await saveArticle(reader, '/astronomy');
    const cycling = await saveArticle(reader, '/cycling');
    kale = await highlight(reader, gardening, 'Kale keeps growing under a frost-cloth tunnel');
    rings = await highlight(reader, astronomy, 'The rings are made of ice and rock');
    cafe = await highlight(reader, cycling, 'A Café stop before the pass (a long climb)');
    const stranger = (await signUp(world.api)).client;
    await highlight(stranger, await saveArticle(stranger), 'Kale belongs to a stranger');
  });

  const search = async (q: string) => {
    const answer = await reader.get(`/highlights/search?q=${encodeURIComponent(q)}`);
    expect(answer.status, `q=${q}: ${JSON.stringify(answer.body)}`).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['highlights']);
    return idsOf(answer.body.highlights);
  };

  it('finds highlighted text, only the caller’s, as {highlights}', async () => {
    expect(await search('kale')).toEqual([kale.id]);
    expect(await search('ICE rock')).toEqual([rings.id]);
    const answer = await reader.get('/highlights/search?q=rings');
    expect(answer.body.highlights[0]).toEqual((await reader.get(`/highlights/${rings.id}`)).body.highlight);
  });

  it('finds highlights by their article’s title', async () => {
    expect(await search('Saturn')).toEqual([rings.id]);
    expect(await search('winter gardening')).toEqual([kale.id]);
  });

  it('matches the last word as a prefix, so results come while typing', async () => {
    expect(await search('kale gro')).toEqual([kale.id]);
    expect(await search('Satu')).toEqual([rings.id]);
    // Only the last word is a prefix.
    expect(await search('gro kale')).toEqual([]);
  });

  it('requires every word', async () => {
    expect(await search('kale rings')).toEqual([]);
  });

  it('folds case and diacritics', async () => {
    expect(await search('cafe')).toEqual([cafe.id]);
    expect(await search('CAFÉ')).toEqual([cafe.id]);
    expect(await search('zurich')).toEqual([cafe.id]);
  });

  it('follows edits and deletes', async () => {
    const own = await saveArticle(reader, '/baking');
    const created = await highlight(reader, own, 'a marigold border');
    expect(await search('marigold')).toEqual([created.id]);
    await reader.put(`/highlights/${created.id}`, { highlightedText: 'a lavender border' });
    expect(await search('marigold')).toEqual([]);
    expect(await search('lavender')).toEqual([created.id]);
    await reader.delete(`/highlights/${created.id}`);
    expect(await search('lavender')).toEqual([]);
  });

  it('never fails on awkward input: quotes, hyphens, *, :, parentheses, unicode and lone operators', async () => {
    const awkward = [
      '"',
      '""',
      '"frost-cloth',
      "kale's",
      'frost-cloth',
      '-kale',
      'kale-',
      '*',
      'kale*',
      '*kale',
      'highlighted_text:kale',
      ':',
      'kale:',
      '(',
      ')',
      '(long climb',
      'climb)',
      '()',
      'AND',
      'OR',
      'NOT',
      'NEAR',
      'kale AND',
      'OR kale',
      'NOT kale',
      'NEAR(kale growing)',
      'kale NEAR/2 growing',
      '^kale',
      '+kale',
      '{highlighted_text}: kale',
      'kale OR rings',
      '\\',
      '%',
      '_',
      "'; DROP TABLE highlights; --",
      'Zürich',
      '日本語',
      '🌱 kale',
      'Ǆ ǅ ǆ',
      ' ',
      '',
      'a'.repeat(500),
    ];
    for (const q of awkward) await search(q);
    // Punctuation is dropped, the words still count.
    expect(await search('"frost-cloth')).toEqual([kale.id]);
    expect(await search('(long climb')).toEqual([cafe.id]);
    expect(await search('highlighted_text:kale')).toEqual([]);
    expect(await search('NEAR(kale growing)')).toEqual([]);
    expect(await search('kale*')).toEqual([kale.id]);
    expect(await search('')).toEqual([]);
    // Still intact afterwards.
    expect(await search('kale')).toEqual([kale.id]);
  });

  it('answers 401 once the session is revoked, whether anything matches or not', async () => {
    // The route asks the session in the query that reads the highlights (plugins/auth.ts): a revoked one
    // reads none, and is then told apart from a search that matched nothing.
    const leaving = await newReader();
    await highlight(leaving, await saveArticle(leaving), 'Kale keeps growing for a reader who leaves');
    expect(idsOf((await leaving.get('/highlights/search?q=kale')).body.highlights)).toHaveLength(1);
    expect((await leaving.get('/highlights/search?q=zzyzx')).body.highlights).toEqual([]);
    expect((await leaving.post('/auth/logout')).status).toBe(204);
    for (const q of ['kale', 'zzyzx', '  ']) {
      const refused = await leaving.get(`/highlights/search?q=${encodeURIComponent(q)}`);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: SERVER_ERRORS.unauthorized });
    }
    expect(await search('kale')).toEqual([kale.id]);
  });

  it('refuses a missing query with 400', async () => {
    expect((await reader.get('/highlights/search')).status).toBe(400);
  });
});

describe('another user’s ids are 404 on every highlight route', () => {
  let reader: ApiClient;
  let stranger: ApiClient;
  let foreignHighlight: { id: string };
  let foreignArticle: string;

  beforeAll(async () => {
    reader = await newReader();
    stranger = await newReader();
    foreignArticle = await saveArticle(stranger);
    foreignHighlight = await highlight(stranger, foreignArticle, 'not yours to read');
  });

  it('hides another user’s highlight on GET, PUT and DELETE', async () => {
    for (const answer of [
      await reader.get(`/highlights/${foreignHighlight.id}`),
      await reader.put(`/highlights/${foreignHighlight.id}`, { highlightedText: 'taken over' }),
      await reader.delete(`/highlights/${foreignHighlight.id}`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: SERVER_ERRORS.highlightNotFound });
    }
    expect((await stranger.get(`/highlights/${foreignHighlight.id}`)).body.highlight.highlighted_text).toBe(
      'not yours to read',
    );
  });

  it('hides another user’s article when listing its highlights or highlighting it', async () => {
    const listed = await reader.get(`/highlights/article/${foreignArticle}`);
    expect(listed.status).toBe(404);
    expect(listed.body).toEqual({ error: SERVER_ERRORS.articleNotFound });

    const created = await reader.post('/highlights', {
      articleId: foreignArticle,
      highlightedText: 'sneaky',
      positionStart: 0,
      positionEnd: 6,
    });
    expect(created.status).toBe(404);
    expect(created.body).toEqual({ error: SERVER_ERRORS.articleNotFound });
    expect((await stranger.get(`/highlights/article/${foreignArticle}`)).body.highlights).toHaveLength(1);
  });

  it('never counts or lists another user’s highlights', async () => {
    expect((await reader.get('/highlights')).body.highlights).toEqual([]);
    expect((await reader.get('/highlights/recent')).body.highlights).toEqual([]);
    expect((await reader.get('/highlights/stats')).body.stats.total_highlights).toBe(0);
  });

  it('answers 404 for unknown ids and 401 without a sign-in', async () => {
    expect((await reader.get(`/highlights/${newId()}`)).status).toBe(404);
    expect((await reader.get(`/highlights/article/${newId()}`)).status).toBe(404);
    expect((await reader.as(null).get('/highlights')).status).toBe(401);
    expect((await reader.as(null).get(`/highlights/${foreignHighlight.id}`)).status).toBe(401);
  });
});
