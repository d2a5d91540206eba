// Issue 14, the device: a signed-in device syncs an article whose images the server has archived,
// downloads them in the background, and reads the article offline, never having opened it online: every
// picture decodes, from the device's own storage. The profile's storage panel shows the sizes and frees
// space. Chromium against the built app and the real server, with the service worker running.
import type { ArticleResponse } from '@lectern/shared-schema';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, signUp, toast, tokenOf } from './support/app-actions';
import { DESKTOP, PHONE, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { eventually } from './support/eventually';
import { saveScreenshot } from './support/screenshots';
import { pictureArticle, startImageSite, type ImageSite } from '../sync-server/test/support/image-site';

const TITLE = 'Field Notes from the Marsh';
const BODY_IMAGES = 3;

let world: BrowserWorld;
let site: ImageSite | null;
const pages: Record<string, string> = {};

beforeAll(async () => {
  site = await startImageSite(pages);
  pages['/field-notes'] = pictureArticle(site.origin, TITLE, BODY_IMAGES, 'field-notes');
  pages['/second'] = pictureArticle(site.origin, 'A Second Walk', 1, 'second');
  world = await startBrowserWorld({ moreAllowedOrigins: [site.origin] });
});

afterAll(async () => {
  await world?.close();
  await site?.close();
});

/** Saves through the API (not this device's screens) and waits until the server has its images. */
async function saveArchived(page: Page, path: string): Promise<ArticleResponse['article']> {
  const api = world.api.as(await tokenOf(page));
  const saved = await api.post('/articles', { url: site!.url(path) });
  expect(saved.status).toBe(201);
  const id = (saved.body as ArticleResponse).article.id;
  return eventually(async () => {
    const answer = await api.get(`/articles/${id}`);
    const article = (answer.body as ArticleResponse).article;
    expect(article.images_pending).toBe(false);
    return article;
  }, 20_000);
}

/** Whether the picture was decoded (a broken image has no natural width); lazy ones are scrolled to. */
function decoded(page: Page, selector: string): Promise<{ src: string; width: number }[]> {
  return page.locator(selector).evaluateAll(async (images: HTMLImageElement[]) => {
    const answers: { src: string; width: number }[] = [];
    for (const image of images) {
      image.scrollIntoView();
      const deadline = Date.now() + 10_000;
      while ((!image.complete || !image.src) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      answers.push({ src: image.src, width: image.naturalWidth });
    }
    return answers;
  });
}

describe('the offline library', () => {
  // First: the next test stops the pictures' site for good.
  it('marks cards still downloading, and looks tidy on a phone and a desktop', async () => {
    const context = await world.newContext(PHONE);
    const page = await context.newPage();
    await signUp(page);
    await saveArchived(page, '/second');
    // Downloads held back: the card says it is still downloading.
    await context.route('**/api/images/**', () => undefined);
    await page.reload();
    const item = card(page, 'A Second Walk');
    await item.getByText('Downloading for offline reading').waitFor({ state: 'attached', timeout: 20_000 });
    await context.unroute('**/api/images/**');
    await page.reload();
    await item.getByText('Available offline').waitFor({ state: 'attached', timeout: 20_000 });
    await saveScreenshot(page, 'dashboard-offline-marks');
    await page.setViewportSize(DESKTOP);
    await saveScreenshot(page, 'dashboard-offline-marks');
    await context.close();
  });

  it('reads a synced article offline with every image, never opened online; the panel frees space', async () => {
    const context = await world.newContext(DESKTOP);
    const page = await context.newPage();
    await signUp(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    const article = await saveArchived(page, '/field-notes');
    expect(article.image_url).toMatch(/^\/api\/images\//);
    const imageAddresses = article.content?.match(/\/api\/images\/[^"' ]+/g) ?? [];
    expect(imageAddresses.length).toBeGreaterThanOrEqual(BODY_IMAGES);

    // A reload syncs; the images download in the background and the card says when they are all in. The
    // requests counted are the reloaded page's: the page before it may have begun a download the reload cut.
    const requestsForImages: string[] = [];
    let reloaded = false;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    page.on('request', (request) => {
      if (reloaded && request.url().includes('/api/images/')) requestsForImages.push(request.url());
    });
    await page.reload();
    const item = card(page, TITLE);
    await item.waitFor();
    await item.getByText('Available offline').waitFor({ state: 'attached', timeout: 20_000 });
    expect(await item.locator('[data-offline="offline"]').getAttribute('title')).toBe('Available offline');
    // Each image once, by the data layer, the token in a header and never in the address.
    expect(requestsForImages.length).toBe(new Set(requestsForImages).size);
    for (const url of requestsForImages) expect(url).not.toMatch(/token|bearer/i);

    // No network, the picture's site gone: only the device can show them now.
    await context.setOffline(true);
    await site?.close();
    site = null;
    await item.getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    const hero = await decoded(page, 'img.reader-hero');
    const body = await decoded(page, '.reader-body img');
    expect(hero).toHaveLength(1);
    expect(body.length).toBe(BODY_IMAGES + 1);
    for (const image of [...hero, ...body]) {
      expect(image.src).toMatch(/^blob:/);
      expect(image.width).toBeGreaterThan(0);
    }

    // The storage panel: what the library takes, what the browser grants; Free space empties the images.
    const profile = await page.goto('/profile');
    expect(profile?.fromServiceWorker()).toBe(true);
    const panel = page.getByRole('region', { name: 'Offline library' });
    const images = panel.getByTestId('offline-images');
    await eventually(async () =>
      expect(await images.innerText()).toMatch(/^\d+(\.\d)? KB · 5 of 5 downloaded$/),
    );
    expect(await panel.getByTestId('offline-articles').innerText()).toMatch(/^\d+(\.\d)? KB · 1 article$/);
    expect(await panel.getByTestId('offline-granted').innerText()).toMatch(/^\d+(\.\d)? (MB|GB|TB), .+ used/);
    expect(await panel.getByRole('radio', { name: 'The newest' }).isChecked()).toBe(true);
    await saveScreenshot(page, 'profile-offline-library');
    await panel.getByRole('button', { name: 'Free space' }).click();
    await toast(page, 'on this device.');
    await eventually(async () => expect(await images.innerText()).toBe('0 B · 0 of 5 downloaded'));
    expect(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const open = indexedDB.open('lectern');
            open.onsuccess = () => {
              const count = open.result.transaction('image_files').objectStore('image_files').count();
              count.onsuccess = () => resolve(count.result);
            };
          }),
      ),
    ).toBe(0);
    await context.close();
  });
});
