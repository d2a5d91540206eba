// Saving an address already in the library: the server answers its article (200), the device shows one
// card and says "Already in your library", online and after an offline save is replayed.
import { MESSAGES, type ArticleListResponse, type HighlightsResponse } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverReader, signedInDevice, siteModule, startWorld, type World } from '../testing/server-fixture';

let world: World;

beforeAll(async () => {
  const { DEFAULT_PAGES } = await siteModule();
  world = await startWorld({ ...DEFAULT_PAGES });
});

afterAll(async () => {
  await world?.close();
});

describe('saving an address already in the library', () => {
  it('online: answers the existing article as alreadySaved, with one card on the device', async () => {
    expect(MESSAGES.alreadyInLibrary).toBe('Already in your library');
    const device = await signedInDevice(world);
    const { articles } = device.lectern;
    const first = await articles.create({ url: world.site.url('/gardening') });
    expect(first.alreadySaved).toBe(false);
    const again = await articles.create({ url: `${world.site.url('/gardening')}?utm_source=feed#top` });
    expect(again.alreadySaved).toBe(true);
    expect(again.article.id).toBe(first.article.id);
    expect((await articles.list()).articles.map((a) => a.id)).toEqual([first.article.id]);
    await device.lectern.close();
  });

  it('offline replay: the placeholder merges into the existing article and its queued writes follow it', async () => {
    const phone = await signedInDevice(world);
    const laptop = await signedInDevice(world, phone.credentials, 'login');
    const { article: original } = await phone.lectern.articles.create({
      url: world.site.url('/astronomy'),
      tags: ['sky'],
    });
    await phone.lectern.highlights.create({
      articleId: original.id,
      highlightedText: 'rings of ice',
      positionStart: 0,
      positionEnd: 12,
    });
    await phone.lectern.sync.syncNow();
    await laptop.lectern.sync.syncNow();
    await laptop.lectern.articles.update(original.id, { isArchived: true });
    await laptop.lectern.sync.syncNow();

    // The phone, offline, saves the same address again under a new client id and works on the copy.
    await phone.lectern.sync.syncNow();
    phone.setOnline(false);
    const { article: copy } = await phone.lectern.articles.create({
      url: `${world.site.url('/astronomy')}/`,
      tags: ['telescope'],
    });
    expect(copy.id).not.toBe(original.id);
    expect(copy.pendingSave?.state).toBe('saving');
    await phone.lectern.articles.update(copy.id, { isFavorite: true });
    const { highlight } = await phone.lectern.highlights.create({
      articleId: copy.id,
      highlightedText: 'planetary rings',
      positionStart: 40,
      positionEnd: 55,
    });
    const { list } = await phone.lectern.lists.create({ name: 'Stars' });
    await phone.lectern.lists.addArticle(list.id, { articleId: copy.id });

    phone.setOnline(true);
    expect(await phone.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
    expect(await phone.lectern.sync.hasUnsyncedWrites()).toBe(false);

    // One card, the original, back from the archive, with every write made on the copy.
    const local = await phone.lectern.articles.list();
    expect(local.articles.map((a) => a.id)).toEqual([original.id]);
    expect(await phone.lectern.db.articles.get(copy.id)).toBeUndefined();
    const server = await serverReader(world, phone.auth.token);
    const onServer = await server<ArticleListResponse>('/articles');
    expect(onServer.articles).toHaveLength(1);
    expect(onServer.articles[0]).toMatchObject({
      id: original.id,
      is_archived: false,
      is_favorite: true,
      highlights_count: 2,
      tags: ['sky', 'telescope'],
    });
    expect(local).toEqual(onServer);
    const { highlights } = await server<HighlightsResponse>(`/highlights/article/${original.id}`);
    expect(highlights.map((h) => [h.id, h.article_id])).toContainEqual([highlight.id, original.id]);
    expect((await phone.lectern.lists.get(list.id)).articles.map((a) => a.id)).toEqual([original.id]);
    await phone.lectern.close();
    await laptop.lectern.close();
  });

  it('offline replay: deleting the copy before it synced leaves the original in place', async () => {
    const device = await signedInDevice(world);
    const { article: original } = await device.lectern.articles.create({ url: world.site.url('/baking') });
    device.setOnline(false);
    const { article: copy } = await device.lectern.articles.create({ url: world.site.url('/baking') });
    await device.lectern.articles.remove(copy.id);
    device.setOnline(true);
    expect(await device.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
    const onServer = await serverReader(world, device.auth.token)<ArticleListResponse>('/articles');
    expect(onServer.articles.map((a) => a.id)).toEqual([original.id]);
    expect((await device.lectern.articles.list()).articles.map((a) => a.id)).toEqual([original.id]);
    await device.lectern.close();
  });
});
