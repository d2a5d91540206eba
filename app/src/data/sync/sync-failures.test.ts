// The sync engine under trouble, against a real server: answers lost after the server applied a write,
// server errors, and the session ending in the middle of a push.
import type {
  ArticleListResponse,
  HighlightsWithStatsResponse,
  ListsResponse,
  TagsResponse,
} from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../api/http-client';
import { UnsyncedWritesError } from '../auth/sign-in-errors';
import type { Lectern } from '../lectern';
import { worldPerFile } from '../testing/per-test';
import { createTestDevice } from '../testing/test-lectern';
import {
  newCredentials,
  serverReader,
  signedInDevice,
  startWorld,
  type World,
} from '../testing/server-fixture';

let world: World;
worldPerFile(startWorld, (started) => (world = started));

/** Offline writes of every kind, each a create or an Idempotency-Key write. */
async function queueWrites(lectern: Lectern) {
  const { articles, tags, lists, highlights } = lectern;
  const { article } = await articles.create({ url: world.site.url('/gardening'), tags: ['home'] });
  await articles.update(article.id, { isFavorite: true });
  const { tag } = await tags.create({ name: 'green' });
  await articles.addTag(article.id, { tagId: tag.id });
  const { list } = await lists.create({ name: 'Garden' });
  await lists.addArticle(list.id, { articleId: article.id });
  await highlights.create({
    articleId: article.id,
    highlightedText: 'frost protection',
    positionStart: 1,
    positionEnd: 17,
  });
  return article.id;
}

async function expectOneOfEach(token: string) {
  const get = serverReader(world, token);
  const { articles } = await get<ArticleListResponse>('/articles');
  expect(articles).toHaveLength(1);
  expect(articles[0]).toMatchObject({ is_favorite: true, tags: ['green', 'home'], highlights_count: 1 });
  expect((await get<TagsResponse>('/tags')).tags.map((t) => [t.name, t.article_count])).toEqual([
    ['green', 1],
    ['home', 1],
  ]);
  expect((await get<ListsResponse>('/lists')).lists.map((l) => [l.name, l.article_count])).toEqual([
    ['Garden', 1],
  ]);
  expect((await get<HighlightsWithStatsResponse>('/highlights')).highlights).toHaveLength(1);
}

describe('an answer lost after the server applied the write', () => {
  it('replays every kind of write without making anything twice', async () => {
    const device = await signedInDevice(world);
    device.setOnline(false);
    await queueWrites(device.lectern);
    device.setOnline(true);
    const queued = await device.lectern.db.outbox.count();
    for (let run = 0; run < queued; run += 1) {
      device.network.state.dropAnswers = 1;
      expect(await device.lectern.sync.syncNow()).toEqual({ status: 'retrying' });
    }
    expect(await device.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
    expect(await device.lectern.sync.hasUnsyncedWrites()).toBe(false);
    await expectOneOfEach(device.auth.token);
    await device.lectern.close();
  });

  it('saving the same URL again after an unanswered online save makes no second article', async () => {
    const device = await signedInDevice(world);
    device.network.state.dropAnswers = 1;
    await expect(device.lectern.articles.create({ url: world.site.url('/baking') })).rejects.toMatchObject({
      status: 0,
    });
    // The server seems unreachable now, so the second try waits on the device, under the same id.
    const { article } = await device.lectern.articles.create({ url: world.site.url('/baking') });
    expect(article.pendingSave?.state).toBe('saving');
    expect(await device.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
    const { articles } = await serverReader(world, device.auth.token)<ArticleListResponse>('/articles');
    expect(articles.map((a) => [a.id, a.title])).toEqual([[article.id, 'Sourdough Bread Basics']]);
    expect((await device.lectern.articles.list()).articles).toEqual(articles);
    await device.lectern.close();
  });
});

describe('server errors', () => {
  it('stop the push, keep the order and go on later', async () => {
    let failNext = 0;
    const flaky: FetchLike = async (url, init) => {
      if (init.method !== 'GET' && failNext > 0) {
        failNext -= 1;
        return new Response(JSON.stringify({ error: 'Service unavailable' }), { status: 503 });
      }
      return fetch(url, init);
    };
    const credentials = newCredentials();
    const device = createTestDevice({ baseUrl: world.server.url, fetch: flaky });
    const { token } = await device.lectern.auth.register(credentials);
    device.setOnline(false);
    await queueWrites(device.lectern);
    device.setOnline(true);
    failNext = 1;
    expect(await device.lectern.sync.syncNow()).toEqual({ status: 'retrying' });
    expect(await device.lectern.db.outbox.count()).toBe(8);
    expect(await device.lectern.sync.syncNow()).toMatchObject({ status: 'synced', pushed: 8 });
    await expectOneOfEach(token);
    await device.lectern.close();
  });
});

describe('a 401 in the middle of a sync', () => {
  it('keeps the outbox, and the same user signing in again drains it', async () => {
    let writesBeforeRevoke = 3;
    let token = '';
    const revoking: FetchLike = async (url, init) => {
      if (init.method !== 'GET' && url.includes('/api/') && !url.includes('/auth/') && token) {
        if (writesBeforeRevoke === 0) {
          await fetch(`${world.server.url}/api/auth/logout`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
          });
          token = '';
        }
        writesBeforeRevoke -= 1;
      }
      return fetch(url, init);
    };
    let unauthorized = 0;
    const credentials = newCredentials();
    const device = createTestDevice({
      baseUrl: world.server.url,
      fetch: revoking,
      onUnauthorized: () => (unauthorized += 1),
    });
    ({ token } = await device.lectern.auth.register(credentials));
    device.setOnline(false);
    await queueWrites(device.lectern);
    device.setOnline(true);

    expect(await device.lectern.sync.syncNow()).toEqual({ status: 'signedOut' });
    expect(unauthorized).toBe(1);
    expect(device.storage.getItem('token')).toBeNull();
    expect(device.lectern.sync.getState().signedOut).toBe(true);
    expect(await device.lectern.db.outbox.count()).toBe(5);
    // Local writes go on while signed out.
    const articleId = (await device.lectern.articles.list()).articles[0]!.id;
    await device.lectern.articles.update(articleId, { isRead: true });
    expect(await device.lectern.sync.syncNow()).toEqual({ status: 'signedOut' });

    const again = await device.lectern.auth.login(credentials);
    expect(await device.lectern.sync.syncNow()).toMatchObject({ status: 'synced' });
    expect(await device.lectern.sync.hasUnsyncedWrites()).toBe(false);
    await expectOneOfEach(again.token);
    const { articles } = await serverReader(world, again.token)<ArticleListResponse>('/articles');
    expect(articles[0]?.is_read).toBe(true);
    await device.lectern.close();
  });

  it('another user signing in on the device starts from an empty database, once told about unsynced writes', async () => {
    const device = await signedInDevice(world);
    device.setOnline(false);
    await queueWrites(device.lectern);
    device.storage.removeItem('token');
    device.setOnline(true);
    const waiting = await device.lectern.db.outbox.count();
    const other = await signedInDevice(world);
    // The first user's writes never go without the warning: the sign-in stops, nothing changes.
    const refusal = await device.lectern.auth.login(other.credentials).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UnsyncedWritesError);
    expect((refusal as UnsyncedWritesError).count).toBe(waiting);
    expect(await device.lectern.db.outbox.count()).toBe(waiting);
    expect(device.storage.getItem('token')).toBeNull();
    // Told, the person signs in anyway.
    await device.lectern.auth.completeSignIn((refusal as UnsyncedWritesError).pending);
    expect(await device.lectern.db.outbox.count()).toBe(0);
    expect((await device.lectern.articles.list()).articles).toEqual([]);
    await device.lectern.close();
    await other.lectern.close();
  });
});

describe('a refused edit', () => {
  it('shows as failed, the device goes back to the server state, and Discard drops it', async () => {
    const device = await signedInDevice(world);
    const { articles, tags, sync } = device.lectern;
    const { article } = await articles.create({ url: world.site.url('/astronomy'), tags: ['sky'] });
    await sync.syncNow();
    const skyId = (await tags.list()).tags[0]!.id;
    device.setOnline(false);
    await tags.update(skyId, { name: 'space' });
    expect((await articles.get(article.id)).article.tags).toEqual(['space']);
    // Meanwhile another device takes the name.
    const other = createTestDevice({ baseUrl: world.server.url });
    other.storage.setItem('token', device.auth.token);
    await other.lectern.tags.create({ name: 'space' });
    await other.lectern.sync.syncNow();

    device.setOnline(true);
    await sync.syncNow();
    const [failed] = await device.lectern.db.outbox.toArray();
    expect(failed).toMatchObject({
      status: 'failed',
      status_code: 409,
      error: 'A tag with this name already exists',
    });
    expect((await articles.get(article.id)).article.tags).toEqual(['sky']);
    expect((await tags.list()).tags.map((t) => t.name)).toEqual(['sky', 'space']);

    await sync.discard(failed!.seq!);
    await sync.syncNow();
    expect(await sync.hasUnsyncedWrites()).toBe(false);
    expect((await tags.list()).tags.map((t) => t.name)).toEqual(['sky', 'space']);
    await device.lectern.close();
    await other.lectern.close();
  });
});

describe('logout', () => {
  it('tells about unsynced writes, then wipes the database', async () => {
    const device = await signedInDevice(world);
    device.setOnline(false);
    await queueWrites(device.lectern);
    expect(await device.lectern.auth.hasUnsyncedWrites()).toBe(true);
    await device.lectern.auth.logout();
    expect(device.storage.getItem('token')).toBeNull();
    expect(await device.lectern.auth.hasUnsyncedWrites()).toBe(false);
    for (const table of device.lectern.db.dataTables) expect(await table.count()).toBe(0);
    await device.lectern.close();
  });
});
