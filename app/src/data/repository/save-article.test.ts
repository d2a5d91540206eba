// Saving a URL or a screenshot: online the server answers first and spec section 8's errors show; offline
// a placeholder shows at once and sync completes it, or leaves it visible with its reason.
import { MESSAGES, type ArticleListResponse } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverReader, signedInDevice, siteModule, startWorld, type World } from '../testing/server-fixture';

let world: World;
const pages: Record<string, string> = {};

/** A blank 24×16 PNG: a real image for the server to sniff and read. */
const PNG = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAAGElEQVR4nGP4TyXAMGrQqEGjBo0aRBkAAFn2e72iNxYTAAAAAElFTkSuQmCC',
  ),
  (c) => c.charCodeAt(0),
);

beforeAll(async () => {
  const { DEFAULT_PAGES } = await siteModule();
  Object.assign(pages, DEFAULT_PAGES);
  world = await startWorld(pages);
});

afterAll(async () => {
  await world?.close();
});

describe('saving online', () => {
  it('answers the extracted article and keeps it on the device', async () => {
    const device = await signedInDevice(world);
    const { article } = await device.lectern.articles.create({
      url: world.site.url('/gardening'),
      tags: ['home'],
    });
    expect(article).toMatchObject({ title: 'Winter Gardening Guide', tags: ['home'], author: 'Ada Green' });
    expect(article.content).toContain('compost');
    expect((await device.lectern.articles.get(article.id)).article).toEqual(article);
    expect(await device.lectern.sync.hasUnsyncedWrites()).toBe(false);
    await device.lectern.close();
  });

  it("shows spec section 8's messages for a missing page, a refused URL and a network error", async () => {
    const device = await signedInDevice(world);
    const { articles } = device.lectern;
    await expect(articles.create({ url: world.site.url('/no-such-page') })).rejects.toMatchObject({
      message: MESSAGES.saveNotFound,
      status: 404,
    });
    const refused = await articles
      .create({ url: 'http://192.168.1.20/private' })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
    expect((refused as Error).message.length).toBeGreaterThan(0);

    device.network.state.online = false;
    await expect(articles.create({ url: world.site.url('/baking') })).rejects.toMatchObject({
      message: MESSAGES.saveNetworkError,
      status: 0,
    });
    expect((await articles.list()).articles).toEqual([]);
    // The server can't be reached now: the next save waits on the device instead of failing.
    expect(device.lectern.sync.getState().online).toBe(false);
    const { article } = await articles.create({ url: world.site.url('/baking') });
    expect(article.pendingSave?.state).toBe('saving');
    device.network.state.online = true;
    await device.lectern.sync.syncNow();
    expect((await articles.get(article.id)).article.title).toBe('Sourdough Bread Basics');
    await device.lectern.close();
  });
});

describe('saving offline', () => {
  it('completes the placeholder with the extracted article when sync runs', async () => {
    const device = await signedInDevice(world);
    device.setOnline(false);
    const { article } = await device.lectern.articles.create({
      url: world.site.url('/astronomy'),
      tags: ['sky'],
    });
    expect(article).toMatchObject({ title: world.site.url('/astronomy'), pendingSave: { state: 'saving' } });
    device.setOnline(true);
    expect(await device.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
    const { article: synced } = await device.lectern.articles.get(article.id);
    expect(synced).toMatchObject({ id: article.id, title: 'Observing Saturn Tonight', tags: ['sky'] });
    expect(synced.pendingSave).toBeUndefined();
    expect((await device.lectern.tags.list()).tags.map((tag) => [tag.name, tag.article_count])).toEqual([
      ['sky', 1],
    ]);
    await device.lectern.close();
  });

  it('carries the html of a save made offline in the outbox and the server extracts from it when it syncs', async () => {
    const device = await signedInDevice(world);
    device.setOnline(false);
    // Not on the fixture site: fetched by its URL this save would be refused with a 404.
    const url = world.site.url('/only-in-the-browser');
    const html = (await siteModule()).articlePage({
      title: 'Seen Only in the Browser',
      paragraphs: [
        'A page a script wrote in the reader’s browser, long enough for Readability to call it an article.',
        'It keeps going with a second paragraph of real prose, so that the extraction keeps its body whole.',
        'And a third paragraph about harbours and ferries, which the search index will have to find later.',
      ],
    });
    const { article } = await device.lectern.articles.create({ url, html, tags: ['offline'] });
    expect(article).toMatchObject({ title: url, pendingSave: { state: 'saving' } });
    const queued = await device.lectern.db.outbox.orderBy('seq').toArray();
    expect(queued.at(-1)?.op).toMatchObject({ kind: 'createArticle', body: { id: article.id, url, html } });

    device.setOnline(true);
    expect(await device.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
    const { article: synced } = await device.lectern.articles.get(article.id);
    expect(synced).toMatchObject({
      id: article.id,
      url,
      title: 'Seen Only in the Browser',
      tags: ['offline'],
    });
    expect(synced.content).toContain('harbours and ferries');
    expect(synced.pendingSave).toBeUndefined();
    await device.lectern.close();
  });

  it('keeps a refused save visible with its reason, without holding back other writes, until Retry or Delete', async () => {
    const device = await signedInDevice(world);
    const { articles, sync } = device.lectern;
    const { article: kept } = await articles.create({ url: world.site.url('/cycling') });
    device.setOnline(false);
    const { article: late } = await articles.create({ url: world.site.url('/published-later') });
    const { article: gone } = await articles.create({ url: world.site.url('/never') });
    await articles.update(kept.id, { isFavorite: true });
    device.setOnline(true);
    await sync.syncNow();

    const { articles: listed } = await articles.list();
    expect(listed.find((a) => a.id === late.id)?.pendingSave).toMatchObject({
      state: 'failed',
      error: MESSAGES.saveNotFound,
    });
    await vi.waitFor(() =>
      expect(sync.getState()).toMatchObject({
        pendingCount: 0,
        failed: [
          { op: { kind: 'createArticle' }, error: MESSAGES.saveNotFound, status: 404 },
          { op: { kind: 'createArticle' }, error: MESSAGES.saveNotFound, status: 404 },
        ],
      }),
    );
    const server = await serverReader(world, device.auth.token)<ArticleListResponse>('/articles');
    expect(server.articles.map((a) => [a.id, a.is_favorite])).toEqual([[kept.id, true]]);

    pages['/published-later'] = (await siteModule()).articlePage({
      title: 'Published Later',
      paragraphs: ['A page that did not exist when it was first saved, and now has enough prose to read.'],
    });
    await articles.retrySave(late.id);
    await sync.syncNow();
    expect((await articles.get(late.id)).article).toMatchObject({ title: 'Published Later' });
    expect((await articles.get(late.id)).article.pendingSave).toBeUndefined();

    await articles.remove(gone.id);
    await expect(articles.get(gone.id)).rejects.toMatchObject({ status: 404 });
    expect(await sync.hasUnsyncedWrites()).toBe(false);
    await device.lectern.close();
  });

  it('drops a save deleted before the server refused it, with its delete', async () => {
    const device = await signedInDevice(world);
    device.setOnline(false);
    const { article } = await device.lectern.articles.create({ url: world.site.url('/nowhere') });
    await device.lectern.articles.remove(article.id);
    device.setOnline(true);
    await device.lectern.sync.syncNow();
    expect(await device.lectern.sync.hasUnsyncedWrites()).toBe(false);
    expect((await device.lectern.articles.list()).articles).toEqual([]);
    await device.lectern.close();
  });

  it('uploads a screenshot taken offline before the writes that refer to its article', async () => {
    const device = await signedInDevice(world);
    const { articles, lists, sync } = device.lectern;
    device.setOnline(false);
    const image = new Blob([PNG], { type: 'image/png' });
    const { article } = await articles.createScreenshot({ image, name: 'shot.png', tags: ['receipts'] });
    await articles.update(article.id, { isFavorite: true });
    const { list } = await lists.create({ name: 'Scans' });
    await lists.addArticle(list.id, { articleId: article.id });
    expect(await articles.localScreenshot(article.id)).not.toBeNull();
    const waiting = await articles.screenshotImage(article.id);
    expect(new Uint8Array(await (waiting ?? new Blob()).arrayBuffer())).toEqual(PNG);
    device.setOnline(true);
    expect(await sync.syncNow()).toMatchObject({ status: 'synced' });
    const { article: synced } = await articles.get(article.id);
    expect(synced).toMatchObject({
      article_type: 'screenshot',
      url: `screenshot://${article.id}`,
      is_favorite: true,
      tags: ['receipts'],
    });
    expect(synced.screenshot_url).toBeTruthy();
    expect((await lists.get(list.id)).articles.map((a) => a.id)).toEqual([article.id]);
    expect(await articles.localScreenshot(article.id)).toBeNull();
    // Once uploaded, the image comes from the server with the device's token.
    const uploaded = await articles.screenshotImage(article.id);
    expect(uploaded?.type).toBe('image/png');
    expect(new Uint8Array(await (uploaded ?? new Blob()).arrayBuffer())).toEqual(PNG);
    await device.lectern.close();
  }, 60_000);
});
