// Issue 10 item 5: open an article from the dashboard by a full page load, press Back, and the dashboard's
// numbers already know the reader marked it read, whether Chromium restored the dashboard from its
// back/forward cache or loaded it again. Run over several articles, because it used to fail one run in two.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlePage } from '../sync-server/test/support/fixture-site';
import { card, signUp, statValue, tokenOf } from './support/app-actions';
import { startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { eventually } from './support/eventually';

const ROUNDS = 15;
const PAGES = Object.fromEntries(
  Array.from({ length: ROUNDS }, (_, i) => [
    `/notes/${i + 1}`,
    articlePage({
      title: `Field Notes, day ${i + 1} of the walk`,
      description: 'A diary of a walk along the river.',
      paragraphs: [
        `Day ${i + 1} follows the river upstream past the mills and the weirs, with enough sentences for a ` +
          'reader view to find the article and keep it as the main text of the page.',
        'In the evening the path reaches a village where the walker finds a room above the inn.',
      ],
    }),
  ]),
);

let world: BrowserWorld;

beforeAll(async () => {
  world = await startBrowserWorld({ pages: PAGES });
});

afterAll(async () => {
  await world?.close();
});

/** Notes on the window whether the page was shown again from the back/forward cache. */
async function watchRestores(page: Page): Promise<void> {
  await page.addInitScript(() => {
    addEventListener('pageshow', (event) => {
      (window as unknown as { restoredFromCache: boolean }).restoredFromCache = event.persisted;
    });
  });
}

describe('Back to the dashboard after reading', () => {
  it('counts the article just read as read, every time', async () => {
    const page = await world.newPage();
    await watchRestores(page);
    await signUp(page);
    const api = world.api.as(await tokenOf(page));
    const ids: string[] = [];
    for (let i = 1; i <= ROUNDS; i += 1) {
      const answer = await api.post('/articles', { url: world.site.url(`/notes/${i}`) });
      expect([200, 201]).toContain(answer.status);
      ids.push(answer.body.article.id);
    }
    await page.reload();
    await card(page, 'Field Notes, day 1 of the walk').waitFor();
    await eventually(async () => expect(await statValue(page, 'Unread')).toBe(String(ROUNDS)));

    const restores: boolean[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      const title = `Field Notes, day ${i + 1} of the walk`;
      // A link that makes a full navigation: a new document, not the app's router.
      await page.goto(`/article/${ids[i]}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.goBack();
      await page.getByRole('heading', { name: 'My Articles' }).waitFor();
      restores.push(
        await page.evaluate(() => (window as { restoredFromCache?: boolean }).restoredFromCache ?? false),
      );
      // A short bound: a lost mark-read used to leave the count stale for good.
      await eventually(
        async () => expect(await statValue(page, 'Unread')).toBe(String(ROUNDS - i - 1)),
        3_000,
      );
      expect(await statValue(page, 'Total')).toBe(String(ROUNDS));
    }
    // The server has every mark-read too, once the device has synced.
    await eventually(async () => {
      const { body } = await api.get('/articles');
      expect(body.stats.unread).toBe(0);
    }, 15_000);
    console.info(
      `dashboard restored from the back/forward cache in ${restores.filter(Boolean).length} of ${ROUNDS} rounds`,
    );
    await page.context().close();
  });
});
