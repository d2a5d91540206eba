// A new device's first sync (issue 16) against a real server on a realistic seeded library: the cards of
// every article first, then the bodies newest first within the reader's budget, picked up after a lost
// connection and a reload from what IndexedDB holds, none fetched twice.
import {
  BODIES_MAX_IDS,
  htmlToText,
  searchTerms,
  type ArticleResponse,
  type Change,
} from '@lectern/shared-schema';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../api/http-client';
import type { Lectern } from '../lectern';
import type { RunningServer } from '../testing/server-fixture';
import { startSeededServer } from '../testing/seeded-server';
import { LIVE_ANSWER } from '../testing/live-answer';
import { createTestDevice } from '../testing/test-lectern';
import { createFeedSplitter, readFeedPage, readStreamedArray } from './feed-page';
import { SYNC_BODIES } from './sync-engine';
import { bodyIds, bodyPages } from '../db/bodies';

const ARTICLES = 240;
const PASSWORD = 'correct horse battery';
const EMAIL = 'first-sync@example.com';

let server: RunningServer;
let token: string;
/** The library's ids, newest save first (the order bodies must come in). */
let newestFirst: string[];

beforeAll(async () => {
  ({ server, token } = await startSeededServer(
    { email: EMAIL, password: PASSWORD, username: 'First Sync' },
    ARTICLES,
  ));
  const listed = await serverGet<{ articles: { id: string; created_at: string }[] }>('/articles');
  newestFirst = listed.articles
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
    .map((article) => article.id);
  expect(newestFirst).toHaveLength(ARTICLES);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function serverGet<T>(path: string): Promise<T> {
  const answer = await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  return (await answer.json()) as T;
}

interface Sent {
  url: string;
  ids: string[];
}

/** A new device (its own IndexedDB unless `shared` names one) whose requests are noted. */
function newDevice(shared?: { indexedDB: IDBFactory; dbName: string }, inner?: FetchLike) {
  const sent: Sent[] = [];
  const recording: FetchLike = (url, init) => {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { ids?: string[] }) : {};
    sent.push({ url, ids: body.ids ?? [] });
    return (inner ?? ((u, i) => fetch(u, i)))(url, init);
  };
  const device = createTestDevice({
    baseUrl: server.url,
    fetch: recording,
    ...(shared ? { indexedDB: { indexedDB: shared.indexedDB, IDBKeyRange }, dbName: shared.dbName } : {}),
  });
  return { device, sent };
}

const bodyCalls = (sent: Sent[]) => sent.filter((request) => request.url.endsWith('/api/articles/bodies'));
const feedCalls = (sent: Sent[]) => sent.filter((request) => request.url.includes('/api/sync/changes'));

async function bodiesOnDevice(lectern: Lectern): Promise<string[]> {
  return bodyIds(lectern.db);
}

describe('the feed read as it streams', () => {
  it('gives each change once, parsed, wherever the answer is cut', () => {
    const changes = [
      {
        seq: 1,
        entity: 'article',
        id: 'a',
        op: 'upsert',
        row: { title: 'Braces {[ and "quotes" ]}\\', path: 'C:\\\\dir\\"x"\\', n: [1] },
      },
      { seq: 2, entity: 'tag', id: 't', op: 'delete', row: null },
      { seq: 3, entity: 'article', id: 'b', op: 'upsert', row: { content: '<p>é — 東京 \\" \n</p>' } },
    ];
    const text = JSON.stringify({ cursor: 3, hasMore: true, changes });
    for (let cut = 0; cut <= text.length; cut += 1) {
      for (const size of [1, 7, 64]) {
        const parsed: Change[] = [];
        const splitter = createFeedSplitter((change) => parsed.push(change));
        splitter.push(text.slice(0, cut));
        for (let i = cut; i < text.length; i += size) splitter.push(text.slice(i, i + size));
        expect(splitter.end()).toEqual({ cursor: 3, hasMore: true });
        expect(parsed).toEqual(changes);
      }
    }
  });

  it('reads a batch of bodies the same way, each body parsed on its own, the unknown ids kept', async () => {
    const bodies = [
      { id: 'a', content: '<p>{"not": [an element]}</p>' },
      { id: 'b', content: null },
    ];
    const text = JSON.stringify({ bodies, unknown: ['c'] });
    for (const size of [1, 5, 4096]) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = new TextEncoder().encode(text);
          for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
          controller.close();
        },
      });
      await expect(readStreamedArray(new Response(stream), 'bodies')).resolves.toEqual({
        bodies,
        unknown: ['c'],
      });
    }
  });

  it("tells a page's head (cursor, hasMore) as soon as its changes begin, before the rest has come", async () => {
    let rest: (() => void) | null = null;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const encode = (text: string) => new TextEncoder().encode(text);
        controller.enqueue(encode('{"cursor":9,"hasMore":true,"changes":[{"seq":8,"entity":"tag",'));
        rest = () => {
          controller.enqueue(encode('"id":"t","op":"delete","row":null}]}'));
          controller.close();
        };
      },
    });
    const coming = readFeedPage(Promise.resolve(new Response(stream)));
    await expect(coming.head).resolves.toEqual({ cursor: 9, hasMore: true });
    let pageDone = false;
    void coming.page.then(() => (pageDone = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pageDone).toBe(false);
    rest!();
    await expect(coming.page).resolves.toEqual({
      cursor: 9,
      hasMore: true,
      changes: [{ seq: 8, entity: 'tag', id: 't', op: 'delete', row: null }],
    });
    // A failed answer fails both; its head is not left waiting.
    const failed = readFeedPage(Promise.reject(new TypeError('Failed to fetch')));
    await expect(failed.head).rejects.toThrow('Failed to fetch');
    await expect(failed.page).rejects.toThrow('Failed to fetch');
  });

  it('reads an answer that comes in one piece of megabytes the same, a slice at a time', async () => {
    const changes = Array.from({ length: 300 }, (_, i) => ({
      seq: i + 1,
      entity: 'article',
      id: `a${i}`,
      op: 'upsert',
      row: { title: `Title ${i} "quoted" {braces}`, excerpt: 'é'.repeat(4_000 + i) },
    }));
    const text = JSON.stringify({ cursor: 300, hasMore: false, changes });
    expect(text.length).toBeGreaterThan(1_000_000);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    });
    const coming = readFeedPage(Promise.resolve(new Response(stream)));
    await expect(coming.head).resolves.toEqual({ cursor: 300, hasMore: false });
    await expect(coming.page).resolves.toEqual({ cursor: 300, hasMore: false, changes });
  });

  it('refuses an answer cut short', () => {
    const splitter = createFeedSplitter(() => undefined);
    splitter.push('{"cursor":3,"hasMore":false,"changes":[{"seq":1');
    expect(() => splitter.end()).toThrow(SyntaxError);
  });
});

describe('a first sync', () => {
  it('lists every card, brings the newest bodies itself, and the rest follow newest first, each once, after a lost connection and a reload', async () => {
    const shared = { indexedDB: new IDBFactory(), dbName: `first-sync-${Date.now()}` };
    // The connection is lost after two calls for bodies in the background.
    let bodyCallsLeft = Infinity;
    const losing: FetchLike = (url, init) => {
      if (url.endsWith('/api/articles/bodies') && (bodyCallsLeft -= 1) < 0)
        return Promise.reject(new TypeError('Failed to fetch'));
      return fetch(url, init);
    };
    const first = newDevice(shared, losing);
    await first.device.lectern.auth.login({ email: EMAIL, password: PASSWORD });
    expect((await first.device.lectern.sync.syncNow()).status).toBe('synced');

    // Every card, with its tags and state; the feed asked for cards only.
    const { articles } = await first.device.lectern.articles.list();
    expect(articles).toHaveLength(ARTICLES);
    const serverList = await serverGet<{ articles: { id: string; tags: string[]; is_read: boolean }[] }>(
      '/articles',
    );
    const byId = new Map(articles.map((article) => [article.id, article]));
    for (const article of serverList.articles)
      expect(byId.get(article.id)).toMatchObject({ tags: article.tags, is_read: article.is_read });
    expect(feedCalls(first.sent).length).toBeGreaterThan(0);
    for (const call of feedCalls(first.sent)) expect(call.url).toContain('cards=true');
    // The sync brought the newest bodies itself, and only those.
    expect(new Set(await bodiesOnDevice(first.device.lectern))).toEqual(
      new Set(newestFirst.slice(0, SYNC_BODIES)),
    );
    const older = newestFirst[ARTICLES - 1]!;
    const card = (await first.device.lectern.articles.get(older)).article;
    expect(card.bodyMissing).toBe(true);
    expect(card.content).toBeNull();

    // In the background: two calls, then the connection is lost.
    bodyCallsLeft = 2;
    expect(await first.device.lectern.offline.downloadNow()).toBe('offline');
    const afterLoss = await bodiesOnDevice(first.device.lectern);
    expect(afterLoss.length).toBeGreaterThan(SYNC_BODIES);
    expect(afterLoss.length).toBeLessThan(ARTICLES);
    // Newest first: what is on the device is the newest part of the library.
    expect(new Set(afterLoss)).toEqual(new Set(newestFirst.slice(0, afterLoss.length)));
    await first.device.lectern.close();

    // A reload: the same database and token; only what is missing is asked for.
    const second = newDevice(shared);
    second.device.storage.setItem('token', first.device.storage.getItem('token')!);
    expect(await second.device.lectern.offline.downloadNow()).toBe('done');
    expect((await bodiesOnDevice(second.device.lectern)).sort()).toEqual([...newestFirst].sort());
    expect(await second.device.lectern.db.getMeta('bodiesWanted')).toBe(false);

    const asked = [...bodyCalls(first.sent), ...bodyCalls(second.sent)].flatMap((call) => call.ids);
    const requested = bodyCalls(first.sent).length + bodyCalls(second.sent).length;
    // Each id asked for once, except those an answer left for the next call (it was full).
    const answeredOnce = new Set(asked);
    expect(answeredOnce.size).toBe(ARTICLES);
    expect(asked.length).toBeLessThanOrEqual(ARTICLES + requested * BODIES_MAX_IDS);
    for (const call of bodyCalls(second.sent)) for (const id of call.ids) expect(afterLoss).not.toContain(id);
    // The article reads as the server has it, and is found by a word of its body.
    const server = await serverGet<ArticleResponse>(`/articles/${older}`);
    const local = (await second.device.lectern.articles.get(older)).article;
    expect(local.content).toBe(server.article.content);
    expect(local.bodyMissing).toBeUndefined();
    expect(await second.device.lectern.db.articles.count()).toBe(ARTICLES);
    await second.device.lectern.close();
  });

  it('keeps the newest bodies within the budget, asks for nothing more until the budget grows', async () => {
    const { device, sent } = newDevice();
    await device.lectern.offline.setBudget({ kind: 'newest', megabytes: 10 });
    await device.lectern.auth.login({ email: EMAIL, password: PASSWORD });
    await device.lectern.sync.syncNow();
    expect(await device.lectern.offline.downloadNow()).toBe('budget');
    const kept = await bodiesOnDevice(device.lectern);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(ARTICLES);
    expect(new Set(kept)).toEqual(new Set(newestFirst.slice(0, kept.length)));
    let bytes = 0;
    // Two bytes a character of each body's HTML: all the device keeps of it.
    for await (const rows of bodyPages(device.lectern.db, 50))
      for (const row of rows) bytes += 2 * (row.content?.length ?? 0);
    expect(await device.lectern.db.getMeta('bodyBytes')).toBe(bytes);
    expect(bytes).toBeLessThanOrEqual(10 * 1024 * 1024);
    expect(bytes).toBeGreaterThan(8 * 1024 * 1024);

    const calls = bodyCalls(sent).length;
    expect(await device.lectern.offline.downloadNow()).toBe('budget');
    await device.lectern.sync.syncNow();
    expect(bodyCalls(sent)).toHaveLength(calls);

    // Opened online, an article past the budget fetches its own body.
    const past = newestFirst[ARTICLES - 1]!;
    expect(await device.lectern.articles.fetchBody(past)).toBe(true);
    expect((await device.lectern.articles.get(past)).article.bodyMissing).toBeUndefined();
    // Offline, another one can't.
    device.setOnline(false);
    await expect(device.lectern.articles.fetchBody(newestFirst[ARTICLES - 2]!)).rejects.toThrow();
    device.setOnline(true);
    await device.lectern.sync.syncNow();

    await device.lectern.offline.setBudget({ kind: 'everything' });
    expect(await device.lectern.offline.downloadNow()).toBe('done');
    expect(await bodiesOnDevice(device.lectern)).toHaveLength(ARTICLES);
    // What was kept was never asked for again.
    const afterGrowth = bodyCalls(sent)
      .slice(calls + 1)
      .flatMap((call) => call.ids);
    for (const id of kept) expect(afterGrowth).not.toContain(id);
    await device.lectern.close();
  });

  it('makes the bodies searchable once they are in, in idle moments, so the first search has nothing left to take in', async () => {
    const { device } = newDevice();
    await device.lectern.auth.login({ email: EMAIL, password: PASSWORD });
    expect((await device.lectern.sync.syncNow()).status).toBe('synced');
    // The dashboard gets the search ready as soon as the cards are listed.
    await device.lectern.articles.prepareSearch();
    const index = device.lectern.articles.searchIndexStats;
    const prepared = index.catchUps;
    expect(await device.lectern.offline.downloadNow()).toBe('done');
    // Taken in after the download, with nobody searching: a catch-up began since, and every one has ended.
    await expect
      .poll(() => index.catchUps > prepared && index.catchUpsEnded === index.catchUps, LIVE_ANSWER)
      .toBe(true);
    const caughtUp = index.catchUps;
    // Words of the oldest article's body alone (the sync brought only the newest bodies): its four longest.
    const oldest = newestFirst[ARTICLES - 1]!;
    const { article } = await serverGet<ArticleResponse>(`/articles/${oldest}`);
    const title = new Set(searchTerms(article.title));
    const words = [...new Set(searchTerms(htmlToText(article.content)))]
      .filter((term) => !title.has(term))
      .sort((a, b) => b.length - a.length)
      .slice(0, 4);
    expect(words).toHaveLength(4);
    const found = await device.lectern.articles.search(words.join(' '));
    expect(found.articles.map((match) => match.id)).toContain(oldest);
    expect(index.catchUps).toBe(caughtUp);
    await device.lectern.close();
  });
});
