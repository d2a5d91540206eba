// Issue 10 item 16: on a shared device, signing out leaves nothing of the reader's behind: no article
// image in the service worker's cache, no screenshot in the browser's HTTP cache or behind an object URL,
// nothing in IndexedDB, the offline library's downloaded images included (issue 14). With the service
// worker running, as the installed app runs.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, signUp, tokenOf } from './support/app-actions';
import { DESKTOP, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { eventually } from './support/eventually';
import { pictureArticle, startImageSite, type ImageSite } from '../sync-server/test/support/image-site';

let world: BrowserWorld;
let pictures: ImageSite;
const picturePages: Record<string, string> = {};

beforeAll(async () => {
  pictures = await startImageSite(picturePages);
  picturePages['/pictures'] = pictureArticle(pictures.origin, 'Pictures Kept Offline', 2, 'kept');
  world = await startBrowserWorld({ moreAllowedOrigins: [pictures.origin] });
});

afterAll(async () => {
  await world?.close();
  await pictures?.close();
});

async function textImage(): Promise<Uint8Array<ArrayBuffer>> {
  const page = await world.newPage({ width: 500, height: 300 });
  await page.setContent(`<div style="padding:24px;font:26px/1.5 sans-serif;background:#fff">
    <h1 style="font-size:34px">Private Notes</h1>
    <p>Reading slowly in the morning builds a lasting habit.</p></div>`);
  const image = await page.screenshot({ type: 'png' });
  await page.context().close();
  return new Uint8Array(
    image.buffer.slice(image.byteOffset, image.byteOffset + image.byteLength) as ArrayBuffer,
  );
}

/** Whether an object URL still gives its picture (the page's CSP lets images, not fetch, read blob:). */
function pictureAt(page: Page, url: string): Promise<'shows' | 'gone'> {
  return page.evaluate(
    (src) =>
      new Promise<'shows' | 'gone'>((resolve) => {
        const img = new Image();
        img.onload = () => resolve('shows');
        img.onerror = () => resolve('gone');
        img.src = src;
      }),
    url,
  );
}

/** Every Cache Storage entry: cache name and request URL. */
function cachedEntries(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const found: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) found.push(`${name} ${request.url}`);
    }
    return found;
  });
}

/** Every IndexedDB database of the origin with the number of records in each store. */
function indexedDbContents(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const counts: Record<string, number> = {};
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of db.objectStoreNames) {
        counts[`${info.name}/${store}`] = await new Promise<number>((resolve) => {
          const request = db.transaction(store).objectStore(store).count();
          request.onsuccess = () => resolve(request.result);
        });
      }
      db.close();
    }
    return counts;
  });
}

describe('signing out on a shared device', () => {
  it('leaves no article image, screenshot or database record behind', async () => {
    const page = await world.newPage(DESKTOP);
    await signUp(page);
    const api = world.api.as(await tokenOf(page));
    const saved = await api.post('/articles', { url: world.site.url('/gardening') });
    expect(saved.status).toBe(201);
    const form = new FormData();
    form.append('screenshot', new Blob([await textImage()], { type: 'image/png' }), 'notes.png');
    const shot = await api.request('POST', '/articles/screenshot', { body: form });
    expect(shot.status).toBe(201);
    const screenshotPath = `/api/articles/${shot.body.article.id}/screenshot`;
    const archived = await api.post('/articles', { url: pictures.url('/pictures') });
    expect(archived.status).toBe(201);

    // Once the worker controls the page, the cards' pictures go through its runtime cache.
    await eventually(async () => {
      await page.reload();
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    }, 20_000);
    await card(page, 'Winter Gardening Guide').waitFor();
    // The offline library downloads the archived pictures and the screenshot into IndexedDB.
    await card(page, 'Pictures Kept Offline')
      .getByText('Available offline')
      .waitFor({ state: 'attached', timeout: 30_000 });
    // Every image listed is downloaded: the garden's, the pictures page's four, the screenshot.
    await eventually(async () => {
      const counts = await indexedDbContents(page);
      expect(counts['lectern/image_files']).toBeGreaterThanOrEqual(5);
      expect(counts['lectern/image_files']).toBe(counts['lectern/offline_images']);
    }, 30_000);

    // The screenshot shows in the reader through an object URL.
    await page.goto(`/article/${shot.body.article.id}`);
    const picture = page.locator('img[src^="blob:"]').first();
    await picture.waitFor();
    const objectUrl = (await picture.getAttribute('src')) ?? '';
    expect(await pictureAt(page, objectUrl)).toBe('shows');
    const before = await indexedDbContents(page);
    expect(before['lectern/articles']).toBe(3);
    expect(before['lectern/image_files']).toBeGreaterThanOrEqual(5);

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);

    const entries = await cachedEntries(page);
    expect(entries.filter((entry) => !entry.startsWith('workbox-precache'))).toEqual([]);
    expect(entries.some((entry) => entry.includes('garden.jpg') || entry.includes('/screenshot'))).toBe(
      false,
    );
    expect(await page.evaluate(() => caches.keys())).not.toContain('article-images');
    const after = await indexedDbContents(page);
    expect(Object.keys(after)).toContain('lectern/articles');
    expect(Object.entries(after).filter(([, count]) => count > 0)).toEqual([]);
    // The screenshot is gone from memory.
    expect(await pictureAt(page, objectUrl)).toBe('gone');
    // The next person at this browser opening the screenshot's address gets the server's 401, not a copy
    // the browser's HTTP cache kept (the server marks it immutable for a year).
    const opened = await page.goto(screenshotPath);
    expect(opened?.status()).toBe(401);
    expect(opened?.headers()['content-type']).toMatch(/^application\/json/);
    await page.context().close();
  });
});
