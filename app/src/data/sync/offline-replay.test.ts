// Writes made offline and synced later leave the server as the same writes made online would.
import { describe, expect, it } from 'vitest';
import type { Lectern } from '../lectern';
import { comparableServerState } from '../testing/server-state';
import { serverReader, signedInDevice, startWorld, type World } from '../testing/server-fixture';
import { worldPerFile } from '../testing/per-test';

let world: World;

worldPerFile(startWorld, (started) => (world = started));

/** A morning's reading: saves, flags, tags, a list and highlights, with edits and deletions between. */
async function readingSession(lectern: Lectern, afterEachWrite: () => Promise<unknown>) {
  const { articles, tags, lists, highlights } = lectern;
  const step = async <T>(write: Promise<T>): Promise<T> => {
    const result = await write;
    await afterEachWrite();
    return result;
  };
  const garden = (await step(articles.create({ url: world.site.url('/gardening'), tags: ['home', 'Green'] })))
    .article.id;
  const astro = (await step(articles.create({ url: world.site.url('/astronomy') }))).article.id;
  const baking = (await step(articles.create({ url: world.site.url('/baking'), tags: ['home'] }))).article.id;
  const cycling = (await step(articles.create({ url: world.site.url('/cycling'), tags: ['travel'] }))).article
    .id;
  await step(articles.update(garden, { isRead: true }));
  await step(articles.update(garden, { isFavorite: true, readingProgress: 0.5 }));
  await step(articles.update(astro, { isArchived: true }));
  const science = (await step(tags.create({ name: 'Science' }))).tag.id;
  await step(articles.addTag(astro, { tagId: science }));
  await step(articles.addTag(garden, { tagId: science }));
  await step(articles.removeTag(garden, science));
  const homeId = (await lectern.tags.list()).tags.find((tag) => tag.name === 'home')!.id;
  await step(tags.update(homeId, { name: 'Household' }));
  const travelId = (await lectern.tags.list()).tags.find((tag) => tag.name === 'travel')!.id;
  const list = (await step(lists.create({ name: 'Weekend', description: 'Slow reads', isPublic: true }))).list
    .id;
  await step(lists.addArticle(list, { articleId: garden }));
  await step(lists.addArticle(list, { articleId: astro }));
  await step(lists.addArticle(list, { articleId: baking, position: 1 }));
  await step(lists.reorder(list, { articles: [baking, astro, garden] }));
  await step(lists.removeArticle(list, astro));
  await step(lists.update(list, { isPublic: false, name: 'Weekend reads' }));
  const scratch = (await step(lists.create({ name: 'Scratch' }))).list.id;
  await step(lists.addArticle(scratch, { articleId: cycling }));
  const kale = (
    await step(
      highlights.create({
        articleId: garden,
        highlightedText: 'winter vegetables like kale',
        contextBefore: 'about ',
        contextAfter: ' is long',
        positionStart: 100,
        positionEnd: 127,
        color: 'yellow',
      }),
    )
  ).highlight.id;
  const dough = (
    await step(
      highlights.create({
        articleId: baking,
        highlightedText: 'kneading dough',
        positionStart: 5,
        positionEnd: 19,
      }),
    )
  ).highlight.id;
  await step(
    highlights.create({
      articleId: cycling,
      highlightedText: 'mountain passes',
      positionStart: 1,
      positionEnd: 16,
    }),
  );
  await step(highlights.update(kale, { contextAfter: ' is hardy' }));
  await step(highlights.remove(dough));
  await step(articles.remove(cycling));
  await step(lists.remove(scratch));
  await step(tags.remove(travelId));
}

describe('offline writes', () => {
  it('reach the server as the same writes made online', async () => {
    const online = await signedInDevice(world);
    await readingSession(online.lectern, () => online.lectern.sync.syncNow());
    expect(await online.lectern.sync.hasUnsyncedWrites()).toBe(false);

    const offline = await signedInDevice(world);
    offline.setOnline(false);
    const requestsBefore = offline.network.state.requests.length;
    await readingSession(offline.lectern, async () => undefined);
    expect(offline.network.state.requests.slice(requestsBefore)).toEqual([]);
    const queued = await offline.lectern.db.outbox.count();
    expect(queued).toBeGreaterThan(25);

    offline.setOnline(true);
    expect(await offline.lectern.sync.syncNow()).toMatchObject({ status: 'synced', pushed: queued });
    expect(await offline.lectern.sync.hasUnsyncedWrites()).toBe(false);

    const onlineState = await comparableServerState(serverReader(world, online.auth.token));
    const offlineState = await comparableServerState(serverReader(world, offline.auth.token));
    expect(offlineState).toEqual(onlineState);
    expect(onlineState.articles.map((a) => a.title)).toEqual([
      'Observing Saturn Tonight',
      'Sourdough Bread Basics',
      'Winter Gardening Guide',
    ]);

    // The offline device now shows the server's extracted articles, not its placeholders.
    const local = await offline.lectern.articles.list();
    const server = await serverReader(world, offline.auth.token)('/articles');
    expect(local).toEqual(server);
    await online.lectern.close();
    await offline.lectern.close();
  });
});
