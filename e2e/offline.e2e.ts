// The installed app with no network, in Chromium against the built app and the real server: once the
// service worker controls the page, a reload offline comes from its cache (the hashed assets by its
// static route), the session and the saved articles come from IndexedDB, and a saved article opens with
// its images from the device's offline library (the server archived them; the device downloaded them
// after syncing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { card, signUp, submitSave } from './support/app-actions';
import { DESKTOP, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { READING, readingPages, startImageSite, type ImageSite } from './support-reader/reading-site';

let world: BrowserWorld;
let images: ImageSite | null;

beforeAll(async () => {
  images = await startImageSite();
  world = await startBrowserWorld({
    pages: readingPages(images.origin),
    moreAllowedOrigins: [images.origin],
  });
});

afterAll(async () => {
  await world?.close();
  await images?.close();
});

/** Whether the picture was decoded (a broken image has no natural width). */
function imageShown(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate(async (image: HTMLImageElement) => {
      if (!image.complete)
        await new Promise((resolve) => image.addEventListener('load', resolve, { once: true }));
      return image.naturalWidth > 0;
    });
}

async function openReader(page: Page) {
  await page.getByRole('heading', { level: 1, name: READING.title }).waitFor();
  await page.locator('.reader-hero').waitFor();
}

describe('offline', () => {
  it('reloads from the service worker and opens a saved article with its image', async () => {
    const context = await world.newContext(DESKTOP);
    const page = await context.newPage();
    await signUp(page);
    // The first visit installs the service worker; from the next load on it answers navigations.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await submitSave(page, world.site.url(READING.path));
    // The server archives the pictures; the device syncs and downloads them in the background.
    const item = card(page, READING.title);
    await item.getByText('Available offline').waitFor({ state: 'attached', timeout: 30_000 });
    await item.getByRole('link').first().click();
    await openReader(page);
    expect(await imageShown(page, '.reader-hero')).toBe(true);
    const articlePath = new URL(page.url()).pathname;

    // No network at all, and the picture's own site gone too: only the caches can answer now.
    await context.setOffline(true);
    await images?.close();
    images = null;

    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await openReader(page);
    // The app's scripts and styles came from the precache by the service worker's static route
    // (app/public/sw-routes.js), without waiting on its fetch handler.
    const assetSources = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith('/assets/'))
        .map(
          (entry) =>
            (entry as PerformanceResourceTiming & { workerFinalSourceType?: string }).workerFinalSourceType,
        ),
    );
    expect(assetSources.length).toBeGreaterThan(1);
    expect(new Set(assetSources)).toEqual(new Set(['cache']));
    expect(new URL(page.url()).pathname).toBe(articlePath);
    expect(await imageShown(page, '.reader-hero')).toBe(true);
    expect(await page.locator('.reader-hero').getAttribute('src')).toMatch(/^blob:/);
    expect(await page.locator('.reader-body').innerText()).toContain(READING.linkText);

    // Every route opens offline: the dashboard lists the article from the device's database.
    const dashboard = await page.goto('/');
    expect(dashboard?.fromServiceWorker()).toBe(true);
    await card(page, READING.title).waitFor();
    await context.close();
  });
});
