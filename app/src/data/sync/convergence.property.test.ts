// Two devices of one user edit the same articles, lists, tags and highlights offline, and sync in random
// interleavings. Afterwards both show exactly the server's state, no write is lost or left refused, and a
// delete wins over any edit of what it deleted.
import fc from 'fast-check';
import type { ArticleListResponse } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../api/http-client';
import type { Lectern } from '../lectern';
import { createTestDevice, type TestDevice } from '../testing/test-lectern';
import {
  newCredentials,
  serverReader,
  signedInDevice,
  startWorld,
  type World,
} from '../testing/server-fixture';

const RUNS = 200;
const PAGES = ['/gardening', '/astronomy', '/baking'];

type Command =
  | { kind: 'flag'; article: number; field: 'isRead' | 'isFavorite' | 'isArchived'; value: boolean }
  | { kind: 'deleteArticle'; article: number }
  | { kind: 'createTag'; name: string }
  | { kind: 'attachTag' | 'detachTag'; article: number; tag: number }
  | { kind: 'deleteTag'; tag: number }
  | { kind: 'createHighlight'; article: number; text: string }
  | { kind: 'updateHighlight'; highlight: number; text: string }
  | { kind: 'deleteHighlight'; highlight: number }
  | { kind: 'createList'; name: string }
  | { kind: 'updateList'; list: number; isPublic: boolean }
  | { kind: 'deleteList'; list: number }
  | { kind: 'addToList'; list: number; article: number; position: number | undefined }
  | { kind: 'removeFromList'; list: number; article: number }
  | { kind: 'reorderList'; list: number; seed: number };

type Step = { device: 0 | 1; command: Command } | { device: 0 | 1; sync: true };

const index = fc.nat({ max: 5 });
const article = fc.nat({ max: PAGES.length - 1 });
const word = fc.constantFrom('kale', 'frost', 'rings', 'dough', 'zest');
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('flag' as const),
      article,
      field: fc.constantFrom('isRead' as const, 'isFavorite' as const, 'isArchived' as const),
      value: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteArticle' as const), article }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('createTag' as const),
      name: fc.constantFrom('home', 'work', 'later'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('attachTag' as const, 'detachTag' as const),
      article,
      tag: index,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteTag' as const), tag: index }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('createHighlight' as const), article, text: word }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('updateHighlight' as const), highlight: index, text: word }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteHighlight' as const), highlight: index }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('createList' as const),
      name: fc.constantFrom('Weekend', 'Work'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('updateList' as const), list: index, isPublic: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteList' as const), list: index }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('addToList' as const),
      list: index,
      article,
      position: fc.option(fc.nat({ max: 3 }), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('removeFromList' as const), list: index, article }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('reorderList' as const), list: index, seed: fc.nat() }),
  },
);
const device = fc.constantFrom(0 as const, 1 as const);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ device, command }) },
  { weight: 1, arbitrary: fc.record({ device, sync: fc.constant(true as const) }) },
);

/** What the property checks writes against: every id created and deleted, by either device. */
interface Journal {
  articles: string[];
  deletedArticles: Set<string>;
  highlights: Map<string, string>;
  deletedHighlights: Set<string>;
  lists: Set<string>;
  deletedLists: Set<string>;
}

function pick<T>(items: readonly T[], i: number): T | undefined {
  return items.length === 0 ? undefined : items[i % items.length];
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const result = [...items];
  let state = seed + 1;
  for (let i = result.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

/** Runs one command the way a screen would; a 404 means the device no longer has its target. */
async function run(lectern: Lectern, c: Command, journal: Journal): Promise<void> {
  const { articles, tags, lists, highlights } = lectern;
  const articleId = 'article' in c ? journal.articles[c.article]! : '';
  const tagIds = (await tags.list()).tags.map((t) => t.id);
  const listIds = (await lists.list()).lists.map((l) => l.id).sort();
  const highlightIds = (await highlights.list()).highlights.map((h) => h.id).sort();
  try {
    switch (c.kind) {
      case 'flag':
        await articles.update(articleId, { [c.field]: c.value });
        return;
      case 'deleteArticle':
        await articles.remove(articleId);
        journal.deletedArticles.add(articleId);
        return;
      case 'createTag':
        await tags.create({ name: c.name });
        return;
      case 'attachTag':
      case 'detachTag': {
        const tagId = pick(tagIds, c.tag);
        if (!tagId) return;
        if (c.kind === 'attachTag') await articles.addTag(articleId, { tagId });
        else await articles.removeTag(articleId, tagId);
        return;
      }
      case 'deleteTag': {
        const tagId = pick(tagIds, c.tag);
        if (tagId) await tags.remove(tagId);
        return;
      }
      case 'createHighlight': {
        const { highlight } = await highlights.create({
          articleId,
          highlightedText: c.text,
          positionStart: 1,
          positionEnd: 9,
        });
        journal.highlights.set(highlight.id, articleId);
        return;
      }
      case 'updateHighlight': {
        const id = pick(highlightIds, c.highlight);
        if (id) await highlights.update(id, { highlightedText: c.text });
        return;
      }
      case 'deleteHighlight': {
        const id = pick(highlightIds, c.highlight);
        if (!id) return;
        await highlights.remove(id);
        journal.deletedHighlights.add(id);
        return;
      }
      case 'createList':
        journal.lists.add((await lists.create({ name: c.name })).list.id);
        return;
      case 'updateList': {
        const id = pick(listIds, c.list);
        if (id) await lists.update(id, { isPublic: c.isPublic });
        return;
      }
      case 'deleteList': {
        const id = pick(listIds, c.list);
        if (!id) return;
        await lists.remove(id);
        journal.deletedLists.add(id);
        return;
      }
      case 'addToList': {
        const id = pick(listIds, c.list);
        if (id) await lists.addArticle(id, { articleId, position: c.position });
        return;
      }
      case 'removeFromList': {
        const id = pick(listIds, c.list);
        if (id) await lists.removeArticle(id, articleId);
        return;
      }
      case 'reorderList': {
        const id = pick(listIds, c.list);
        if (!id) return;
        const order = (await lists.get(id)).articles.map((a) => a.id);
        await lists.reorder(id, { articles: shuffled(order, c.seed) });
        return;
      }
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return;
    throw error;
  }
}

/** Everything a screen can read, content left out (it is the same server text on both sides). */
async function visibleState(lectern: Lectern) {
  const { articles, stats } = await lectern.articles.list();
  const { lists } = await lectern.lists.list();
  return {
    articles,
    stats,
    tags: (await lectern.tags.list()).tags,
    lists,
    listArticles: await Promise.all(
      lists.map(async (l) => (await lectern.lists.get(l.id)).articles.map((a) => a.id)),
    ),
    highlights: (await lectern.highlights.list()).highlights,
  };
}

async function serverState(get: <T>(path: string) => Promise<T>) {
  const { articles, stats } = await get<ArticleListResponse>('/articles');
  const { lists } = await get<{ lists: { id: string }[] }>('/lists');
  return {
    articles,
    stats,
    tags: (await get<{ tags: unknown[] }>('/tags')).tags,
    lists,
    listArticles: await Promise.all(
      lists.map(async (l) =>
        (await get<{ articles: { id: string }[] }>(`/lists/${l.id}`)).articles.map((a) => a.id),
      ),
    ),
    highlights: (await get<{ highlights: unknown[] }>('/highlights')).highlights,
  };
}

let world: World;
const prepared: Account[] = [];

interface Account {
  token: string;
  articles: string[];
}

/** A fresh account holding a few saved articles, a list, a tag and a highlight, synced. */
async function makeAccount(): Promise<Account> {
  const device = await signedInDevice(world, newCredentials());
  const { articles, lists, tags, highlights, sync } = device.lectern;
  const ids = [];
  for (const page of PAGES) ids.push((await articles.create({ url: world.site.url(page) })).article.id);
  const { list } = await lists.create({ name: 'Weekend' });
  await lists.addArticle(list.id, { articleId: ids[0]! });
  await lists.addArticle(list.id, { articleId: ids[1]! });
  await tags.create({ name: 'home' });
  await highlights.create({
    articleId: ids[0]!,
    highlightedText: 'compost',
    positionStart: 0,
    positionEnd: 7,
  });
  await sync.syncNow();
  await device.lectern.close();
  return { token: device.auth.token, articles: ids };
}

beforeAll(async () => {
  world = await startWorld();
  // Accounts are made up front, four at a time (password hashing and extraction run in parallel).
  while (prepared.length < RUNS) prepared.push(...(await Promise.all([0, 1, 2, 3].map(makeAccount))));
}, 300_000);

afterAll(async () => {
  await world?.close();
});

describe('two devices editing offline', () => {
  it('converge on the server state with no write lost and deletes winning', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 24 }), async (steps) => {
        // Shrinking a failure runs more cases than prepared: those get their account on the spot.
        const account = prepared.pop() ?? (await makeAccount());
        const devices: TestDevice[] = [0, 1].map(() => createTestDevice({ baseUrl: world.server.url }));
        try {
          for (const d of devices) {
            d.storage.setItem('token', account.token);
            expect(await d.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
            d.setOnline(false);
          }
          const journal: Journal = {
            articles: account.articles,
            deletedArticles: new Set(),
            highlights: new Map(),
            deletedHighlights: new Set(),
            lists: new Set(),
            deletedLists: new Set(),
          };
          for (const s of steps) {
            const d = devices[s.device]!;
            if ('sync' in s) {
              d.setOnline(true);
              expect(await d.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
              d.setOnline(false);
            } else {
              await run(d.lectern, s.command, journal);
            }
          }
          for (const d of [...devices, devices[0]!]) {
            d.setOnline(true);
            expect(await d.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
          }

          for (const d of devices) {
            expect(await d.lectern.db.outbox.toArray()).toEqual([]);
          }
          const server = await serverState(serverReader(world, account.token));
          expect(await visibleState(devices[0]!.lectern)).toEqual(server);
          expect(await visibleState(devices[1]!.lectern)).toEqual(server);

          const articleIds = new Set(server.articles.map((a) => a.id));
          for (const id of journal.articles)
            expect(articleIds.has(id)).toBe(!journal.deletedArticles.has(id));
          const highlightIds = new Set((server.highlights as { id: string }[]).map((h) => h.id));
          for (const [id, articleId] of journal.highlights) {
            const kept = !journal.deletedHighlights.has(id) && !journal.deletedArticles.has(articleId);
            expect(highlightIds.has(id)).toBe(kept);
          }
          const listIds = new Set(server.lists.map((l) => l.id));
          for (const id of journal.lists) expect(listIds.has(id)).toBe(!journal.deletedLists.has(id));
        } finally {
          for (const d of devices) await d.lectern.close();
        }
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
