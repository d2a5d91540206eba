// The offline library against the real server (issue 14): after a sync the device downloads the archived
// images of its articles with the token in a header, newest first, within its budget; they show offline;
// a reload carries on where it stopped; a deleted article, "Free space" and logout take them away.
import type { ArticleResponse } from '@lectern/shared-schema';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../api/http-client';
import {
  imageSiteModule,
  newCredentials,
  untilImagesArchived,
  startWorld,
  type ImageSite,
  type World,
} from '../testing/server-fixture';
import { createTestDevice, type TestDevice } from '../testing/test-lectern';
import { isKeptImageAddress, keptImageAddresses } from './image-addresses';

let world: World;
let site: ImageSite;
let pictureArticle: (origin: string, title: string, count: number, prefix?: string) => string;
const pages: Record<string, string> = {};

beforeAll(async () => {
  const module = await imageSiteModule();
  pictureArticle = module.pictureArticle;
  site = await module.startImageSite(pages);
  world = await startWorld(undefined, { moreAllowedOrigins: [site.origin] });
});

afterAll(async () => {
  await world?.close();
  await site?.close();
});

interface Sent {
  url: string;
  authorization: string | null;
}

/** A device whose every request is noted with its Authorization header. */
function recordingDevice(options: Parameters<typeof createTestDevice>[0] = {}) {
  const sent: Sent[] = [];
  const inner: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const recording: FetchLike = (url, init) => {
    const headers = new Headers(init.headers);
    sent.push({ url, authorization: headers.get('authorization') });
    return inner(url, init);
  };
  const device = createTestDevice({ baseUrl: world.server.url, ...options, fetch: recording });
  return { device, sent };
}

async function signUp(device: TestDevice) {
  return device.lectern.auth.register(newCredentials());
}

/** Saves a page of the image site and waits until the server has archived its images. */
async function saveWithImages(device: TestDevice, token: string, path: string, title: string, count: number) {
  pages[path] = pictureArticle(site.origin, title, count, path);
  const { article } = await device.lectern.articles.create({ url: site.url(path) });
  return untilImagesArchived<ArticleResponse['article']>(world, token, article.id);
}

async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const imageRequests = (sent: Sent[]) => sent.filter((request) => request.url.includes('/api/images/'));

describe('image addresses', () => {
  const hash = 'ab'.repeat(32);
  it('keeps the server copies named by image_url, img src and srcset, each once, and nothing else', () => {
    const lead = `/api/images/a1/${hash}.png`;
    const body = `<p><img src="/api/images/a1/${'cd'.repeat(32)}.jpg" srcset="/api/images/a1/${'ef'.repeat(32)}.webp 2x">
      <img src="https://elsewhere.example/x.png"><img src="${lead}"></p>`;
    expect(keptImageAddresses({ id: 'a1', image_url: lead, screenshot_url: null }, body)).toEqual([
      lead,
      `/api/images/a1/${'cd'.repeat(32)}.jpg`,
      `/api/images/a1/${'ef'.repeat(32)}.webp`,
    ]);
    expect(keptImageAddresses({ id: 's1', image_url: '/api/articles/s1/screenshot' }, null)).toEqual([
      '/api/articles/s1/screenshot',
    ]);
    expect(isKeptImageAddress(`/api/images/a1/${hash}.png`)).toBe(true);
    expect(isKeptImageAddress(`/api/images/a1/${hash}.png?token=x`)).toBe(false);
    expect(isKeptImageAddress(`/api/images/a1/${hash}.exe`)).toBe(false);
    expect(isKeptImageAddress('https://example.com/api/images/a1/x.png')).toBe(false);
  });
});

describe('the offline library', () => {
  it('downloads every archived image of a synced article with the token in a header, and shows them offline', async () => {
    const { device, sent } = recordingDevice();
    const { token } = await signUp(device);
    const saved = await saveWithImages(device, token, '/three-pictures', 'Three Pictures', 3);
    expect(saved.image_url).toMatch(/^\/api\/images\//);
    await device.lectern.sync.syncNow();
    const article = (await device.lectern.articles.get(saved.id)).article;
    const addresses = keptImageAddresses(article, article.content);
    // The lead image, three body images and the SVG figure.
    expect(addresses).toHaveLength(5);

    expect(await device.lectern.offline.downloadNow()).toBe('done');
    const requests = imageRequests(sent);
    expect(requests.map((request) => new URL(request.url).pathname).sort()).toEqual([...addresses].sort());
    for (const request of requests) {
      expect(request.authorization).toBe(`Bearer ${token}`);
      expect(request.url).not.toContain(token);
    }
    expect(await device.lectern.db.image_files.count()).toBe(5);
    expect((await device.lectern.offline.availability([saved])).get(saved.id)).toBe('offline');

    // Offline, without the server: each image is the server's bytes, from the device.
    device.setOnline(false);
    for (const address of addresses) {
      const blob = await device.lectern.offline.imageBlob(saved.id, address);
      const server = await fetch(`${world.server.url}${address}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(server.status).toBe(200);
      expect(blob?.type).toBe(server.headers.get('content-type'));
      expect(new Uint8Array(await blob!.arrayBuffer())).toEqual(new Uint8Array(await server.arrayBuffer()));
    }
    const usage = await device.lectern.offline.usage();
    expect(usage.images).toMatchObject({ stored: 5, listed: 5, waiting: 0 });
    expect(usage.images.bytes).toBe(
      (await device.lectern.db.image_files.toArray()).reduce((sum, file) => sum + file.bytes.byteLength, 0),
    );
    expect(usage.articles.count).toBe(1);
    expect(usage.articles.bytes).toBeGreaterThan(0);
    await device.lectern.close();
  });

  it('tells a watcher as the images come in, a few times at most', async () => {
    const { device } = recordingDevice();
    const { token } = await signUp(device);
    const saved = await saveWithImages(device, token, '/watched', 'Watched Pictures', 6);
    await device.lectern.sync.syncNow();
    const seen: (string | undefined)[] = [];
    const stop = device.lectern.offline.watchAvailability(
      [saved],
      (value) => seen.push(value.get(saved.id)),
      200,
    );
    await eventually(() => expect(seen).toEqual([undefined]));
    await device.lectern.offline.scanNow();
    await eventually(() => expect(seen.at(-1)).toBe('downloading'));
    expect(await device.lectern.offline.downloadNow()).toBe('done');
    await eventually(() => expect(seen.at(-1)).toBe('offline'));
    // Only changes are told: none, downloading, offline.
    expect(seen).toEqual([undefined, 'downloading', 'offline']);
    stop();
    await device.lectern.close();
  });

  it('says downloading until the images are in, and fetches one on demand when opened online', async () => {
    const { device, sent } = recordingDevice();
    const { token } = await signUp(device);
    const saved = await saveWithImages(device, token, '/on-demand', 'On Demand', 1);
    await device.lectern.sync.syncNow();
    // Listed, nothing downloaded yet.
    device.setOnline(false);
    expect(await device.lectern.offline.downloadNow()).toBe('offline');
    expect((await device.lectern.offline.availability([saved])).get(saved.id)).toBe('downloading');
    expect(await device.lectern.offline.imageBlob(saved.id, saved.image_url!)).toBeNull();

    device.setOnline(true);
    const blob = await device.lectern.offline.imageBlob(saved.id, saved.image_url!);
    expect(blob?.type).toBe('image/png');
    expect(imageRequests(sent).map((request) => new URL(request.url).pathname)).toEqual([saved.image_url]);
    expect((await device.lectern.db.offline_images.get(saved.image_url!))?.state).toBe('stored');
    // The next pass downloads only what the reader hasn't seen yet.
    expect(await device.lectern.offline.downloadNow()).toBe('done');
    expect(imageRequests(sent)).toHaveLength(3);
    expect((await device.lectern.offline.availability([saved])).get(saved.id)).toBe('offline');
    await device.lectern.close();
  });

  it('asks the server once for an image a card wants while the download that fetched it is storing it', async () => {
    // The batch's first image is in and its second still on the way (slowed), so the batch is not stored
    // yet: a card asking for the first one now waits for the download's answer instead of asking again.
    let slowed = '';
    let scheduled = false;
    let asked: Promise<Blob | null> | null = null;
    const { device, sent } = recordingDevice({
      fetch: async (url, init) => {
        const path = new URL(url).pathname;
        if (!path.startsWith('/api/images/')) return fetch(url, init);
        if (!slowed) {
          slowed = path;
          await new Promise((resolve) => setTimeout(resolve, 400));
          return fetch(url, init);
        }
        const response = await fetch(url, init);
        if (!scheduled) {
          scheduled = true;
          setTimeout(() => {
            asked = device.lectern.offline.imageBlob(saved.id, path);
          }, 100);
        }
        return response;
      },
    });
    const { token } = await signUp(device);
    const saved = await saveWithImages(device, token, '/asked-twice', 'Asked Twice', 3);
    await device.lectern.sync.syncNow();
    expect(await device.lectern.offline.downloadNow()).toBe('done');
    expect(asked).not.toBeNull();
    expect((await asked!)?.type).toMatch(/^image\//);
    const paths = imageRequests(sent).map((request) => new URL(request.url).pathname);
    expect(paths).toHaveLength(5);
    expect(new Set(paths).size).toBe(5);
    await device.lectern.close();
  });

  it('picks up after a reload where the downloads stopped, newest article first', async () => {
    const shared = {
      indexedDB: { indexedDB: new IDBFactory(), IDBKeyRange },
      dbName: `offline-resume-${Date.now()}`,
    };
    // The connection drops after four images: one batch.
    let served = 0;
    const dropping: FetchLike = async (url, init) => {
      if (url.includes('/api/images/') && (served += 1) > 4) throw new TypeError('Failed to fetch');
      return fetch(url, init);
    };
    const first = recordingDevice({ ...shared, fetch: dropping });
    const { token } = await signUp(first.device);
    const older = await saveWithImages(first.device, token, '/older', 'Older Pictures', 2);
    const newer = await saveWithImages(first.device, token, '/newer', 'Newer Pictures', 2);
    await first.device.lectern.sync.syncNow();
    expect(await first.device.lectern.offline.downloadNow()).toBe('offline');
    const firstBatch = imageRequests(first.sent)
      .slice(0, 4)
      .map((request) => new URL(request.url).pathname);
    // Newest first: the newer article's lead, two body images and figure.
    expect(new Set(firstBatch.map((path) => path.split('/')[3]))).toEqual(new Set([newer.id]));
    expect(await first.device.lectern.db.image_files.count()).toBe(4);
    await first.device.lectern.close();

    // Started again on the same database (a reload), the token still in storage: only the rest comes.
    const second = recordingDevice({ ...shared, tokenStorage: first.device.storage });
    expect(await second.device.lectern.offline.downloadNow()).toBe('done');
    const rest = imageRequests(second.sent).map((request) => new URL(request.url).pathname);
    expect(rest).toHaveLength(4);
    expect(new Set(rest.map((path) => path.split('/')[3]))).toEqual(new Set([older.id]));
    expect(await second.device.lectern.db.image_files.count()).toBe(8);
    await second.device.lectern.close();
  });

  it('keeps the newest images within the budget, grows with it, and frees space', async () => {
    const { device, sent } = recordingDevice();
    const { token } = await signUp(device);
    const saved: ArticleResponse['article'][] = [];
    // Each about 3 MB of incompressible noise (its lead image only): four take more than 10 MB.
    for (const name of ['big-a', 'big-b', 'big-c', 'big-d'])
      saved.push(await saveWithImages(device, token, `/${name}`, `Large ${name}`, 0));
    await device.lectern.sync.syncNow();
    await device.lectern.offline.setBudget({ kind: 'newest', megabytes: 10 });
    // The oldest is fetched once to learn it doesn't fit; after that it waits for a larger budget.
    expect(['done', 'budget']).toContain(await device.lectern.offline.downloadNow());
    const fetched = imageRequests(sent).length;
    expect(await device.lectern.offline.downloadNow()).toBe('budget');
    expect(imageRequests(sent)).toHaveLength(fetched);

    const availability = await device.lectern.offline.availability(saved);
    expect(saved.map((article) => availability.get(article.id))).toEqual([
      undefined,
      'offline',
      'offline',
      'offline',
    ]);
    const listed = async (ids: string[]) =>
      await device.lectern.db.offline_images.where('article_id').anyOf(ids).count();
    const usage = await device.lectern.offline.usage();
    expect(usage.images.bytes).toBeLessThanOrEqual(10 * 1024 * 1024);
    expect(usage.images.bytes).toBeGreaterThan(9 * 1000 * 1000);
    expect(usage.images.stored).toBe(await listed(saved.slice(1).map((article) => article.id)));

    await device.lectern.offline.setBudget({ kind: 'everything' });
    expect(await device.lectern.offline.downloadNow()).toBe('done');
    expect((await device.lectern.offline.usage()).images.stored).toBe(
      await listed(saved.map((article) => article.id)),
    );
    expect(device.lectern.offline.budget()).toEqual({ kind: 'everything' });
    expect(JSON.parse(device.storage.values.get('lectern.offlineBudget') ?? 'null')).toEqual({
      kind: 'everything',
    });

    const before = (await device.lectern.offline.usage()).images.bytes;
    expect(await device.lectern.offline.freeSpace()).toBe(before);
    expect(await device.lectern.db.image_files.count()).toBe(0);
    expect((await device.lectern.offline.usage()).images.bytes).toBe(0);
    // Freed images stay freed; an article saved afterwards still downloads its own.
    const later = await saveWithImages(device, token, '/after-free', 'After Free', 1);
    await device.lectern.sync.syncNow();
    expect(await device.lectern.offline.downloadNow()).toBe('done');
    expect(await device.lectern.db.image_files.count()).toBe(await listed([later.id]));
    expect(await listed([later.id])).toBeGreaterThanOrEqual(2);
    expect((await device.lectern.offline.availability([later])).get(later.id)).toBe('offline');
    await device.lectern.close();
  });

  it('drops the images of a deleted article, and logout leaves none behind', async () => {
    const { device } = recordingDevice();
    const { token } = await signUp(device);
    const gone = await saveWithImages(device, token, '/to-delete', 'To Delete', 1);
    const kept = await saveWithImages(device, token, '/to-keep', 'To Keep', 1);
    await device.lectern.sync.syncNow();
    expect(await device.lectern.offline.downloadNow()).toBe('done');
    expect(await device.lectern.db.image_files.count()).toBe(6);

    await device.lectern.articles.remove(gone.id);
    await device.lectern.sync.syncNow();
    expect(await device.lectern.offline.downloadNow()).toBe('done');
    const left = await device.lectern.db.offline_images.toArray();
    expect(new Set(left.map((row) => row.article_id))).toEqual(new Set([kept.id]));
    expect(await device.lectern.db.image_files.count()).toBe(3);

    await device.lectern.auth.logout();
    expect(await device.lectern.db.offline_images.count()).toBe(0);
    expect(await device.lectern.db.image_files.count()).toBe(0);
    expect(await device.lectern.db.getMeta('offlineImagesRev')).toBeUndefined();
    await device.lectern.close();
  });

  it('keeps a synced screenshot offline, not only one waiting to upload', async () => {
    const png = Uint8Array.from(
      atob(
        'iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAAGElEQVR4nGP4TyXAMGrQqEGjBo0aRBkAAFn2e72iNxYTAAAAAElFTkSuQmCC',
      ),
      (c) => c.charCodeAt(0),
    );
    const phone = recordingDevice();
    const credentials = newCredentials();
    await phone.device.lectern.auth.register(credentials);
    const { article } = await phone.device.lectern.articles.createScreenshot({
      image: new Blob([png], { type: 'image/png' }),
      name: 'shot.png',
    });
    await phone.device.lectern.close();

    // Another device of the same reader syncs it, downloads it, and shows it with no network.
    const laptop = recordingDevice();
    await laptop.device.lectern.auth.login(credentials);
    await laptop.device.lectern.sync.syncNow();
    const synced = (await laptop.device.lectern.articles.get(article.id)).article;
    const address = synced.image_url ?? synced.screenshot_url;
    expect(address).toBe(`/api/articles/${article.id}/screenshot`);
    expect(await laptop.device.lectern.offline.downloadNow()).toBe('done');
    expect(laptop.sent.filter((request) => request.url.endsWith('/screenshot'))).toHaveLength(1);
    laptop.device.setOnline(false);
    const blob = await laptop.device.lectern.offline.imageBlob(article.id, address!);
    expect(new Uint8Array(await blob!.arrayBuffer())).toEqual(png);
    expect((await laptop.device.lectern.offline.availability([synced])).get(article.id)).toBe('offline');
    await laptop.device.lectern.close();
  }, 60_000);
});
