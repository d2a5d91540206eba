// Issue 5's dashboard path in Chromium against the built app and the real server: sign up, save, stats,
// tags, search, sort, archive, favourite, bulk delete, analytics, shortcuts, sign out and in; every save
// message of spec sections 5 and 8; the share-target screen; a long library rendered page by page.
import { MESSAGES, SERVER_ERRORS } from '@lectern/shared-schema';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlePage } from '../sync-server/test/support/fixture-site';
import {
  card,
  cardTitles,
  newAccount,
  signIn,
  signUp,
  statValue,
  submitSave,
  toast,
  tokenOf,
} from './support/app-actions';
import { DESKTOP, PHONE, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { checkScreen } from './support/check-screen';
import { eventually } from './support/eventually';
import { saveScreenshot } from './support/screenshots';

const SERIES = Object.fromEntries(
  Array.from({ length: 100 }, (_, i) => [
    `/series/${i + 1}`,
    articlePage({
      title: `Letters from the Coast, part ${i + 1}`,
      description: 'A long series of essays about the sea.',
      paragraphs: [
        `Part ${i + 1} of the series walks the shore at low tide and describes the birds, the boats and the ` +
          'weather in enough sentences for a reader view to find the article and keep it.',
        'The tide comes back in the afternoon and the walk ends at the harbour, where the fishing boats unload.',
      ],
    }),
  ]),
);

let world: BrowserWorld;

beforeAll(async () => {
  world = await startBrowserWorld({ pages: SERIES });
});

afterAll(async () => {
  await world?.close();
});

const GARDENING = 'Winter Gardening Guide';
const ASTRONOMY = 'Observing Saturn Tonight';
const BAKING = 'Sourdough Bread Basics';
const CYCLING = 'Café Culture and Cycling in Zürich';

/**
 * How the dashboard's stat cards look at phone and desktop size (a screenshot of each is kept): the fonts
 * of label and figure, how the card lays them out, and which of the two is on top.
 */
async function statCardLook(page: Page, screenshot: string) {
  const looks = [];
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await saveScreenshot(page, screenshot);
    looks.push(
      await page
        .locator('.stats-grid .stat-card')
        .first()
        .evaluate((card) => {
          const label = card.querySelector('.stat-card__label')!;
          const value = card.querySelector('.stat-card__value')!;
          const font = (element: Element) => {
            const style = getComputedStyle(element);
            const { fontFamily, fontSize, fontWeight, lineHeight, order, color } = style;
            return { fontFamily, fontSize, fontWeight, lineHeight, order, color };
          };
          const { display, flexDirection, gridAutoFlow, padding } = getComputedStyle(card);
          return {
            card: { display, flexDirection, gridAutoFlow, padding },
            label: font(label),
            value: font(value),
            labelOnTop: label.getBoundingClientRect().top < value.getBoundingClientRect().top,
          };
        }),
    );
  }
  return looks;
}

function pressed(page: Page, name: string) {
  return page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed');
}

describe('the My Articles dashboard', () => {
  it('saves, counts, filters, searches, sorts, archives, favourites and bulk-deletes, and the server keeps it', async () => {
    const page = await world.newPage();
    const account = await signUp(page);
    await page.getByText(MESSAGES.noArticlesYet).waitFor();
    expect(await statValue(page, 'Total')).toBe('0');
    expect(await checkScreen(page, 'dashboard-empty')).toEqual([]);

    // Spec section 5's messages, inline.
    await submitSave(page, 'not a url');
    await page.getByText(MESSAGES.invalidUrl, { exact: true }).waitFor();
    await submitSave(page, 'ftp://example.com/file.txt');
    await page.getByText(MESSAGES.invalidHttpUrl, { exact: true }).waitFor();

    await submitSave(page, world.site.url('/gardening'), ' garden, home ,, ');
    await toast(page, `Saved “${GARDENING}”`);
    await card(page, GARDENING).waitFor();
    expect(await card(page, GARDENING).locator('.tag-chip').allInnerTexts()).toEqual(['garden', 'home']);
    await submitSave(page, world.site.url('/astronomy'), 'sky');
    await card(page, ASTRONOMY).waitFor();
    await submitSave(page, world.site.url('/baking'));
    await card(page, BAKING).waitFor();
    await submitSave(page, world.site.url('/cycling'));
    await card(page, CYCLING).waitFor();
    expect(await statValue(page, 'Total')).toBe('4');
    expect(await statValue(page, 'Unread')).toBe('4');
    expect(await card(page, ASTRONOMY).innerText()).toContain('Carl Stern');

    // The tag filter, with Clear.
    await page
      .getByRole('complementary', { name: 'Tags' })
      .getByRole('button', { name: /^garden/ })
      .click();
    await eventually(async () => expect(await cardTitles(page)).toEqual([GARDENING]));
    await page.getByText('Tag: garden').waitFor();
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await eventually(async () => expect(await cardTitles(page)).toHaveLength(4));

    // Live search, then back to the list when the box is emptied.
    await page.getByLabel('Search articles').fill('saturn');
    await eventually(async () => expect(await cardTitles(page)).toEqual([ASTRONOMY]));
    await page.getByText('1 result for “saturn”').waitFor();
    await page.getByLabel('Search articles').fill('');
    await eventually(async () => expect(await cardTitles(page)).toHaveLength(4));

    // Client-side sort.
    await page.getByLabel('Sort').selectOption({ label: 'A-Z' });
    await eventually(async () =>
      expect(await cardTitles(page)).toEqual([CYCLING, ASTRONOMY, BAKING, GARDENING]),
    );
    await page.getByLabel('Sort').selectOption({ label: 'Oldest First' });
    await eventually(async () =>
      expect(await cardTitles(page)).toEqual([GARDENING, ASTRONOMY, BAKING, CYCLING]),
    );
    await page.getByLabel('Sort').selectOption({ label: 'Newest First' });
    await eventually(async () =>
      expect(await cardTitles(page)).toEqual([CYCLING, BAKING, ASTRONOMY, GARDENING]),
    );

    // Archive and favourite, and the toggles that show them.
    await card(page, GARDENING)
      .getByRole('button', { name: /^Archive / })
      .click();
    await toast(page, 'Article archived');
    await eventually(async () => expect(await cardTitles(page)).not.toContain(GARDENING));
    expect(await statValue(page, 'Archived')).toBe('1');
    await card(page, ASTRONOMY)
      .getByRole('button', { name: /^Favorite / })
      .click();
    await eventually(async () => expect(await statValue(page, 'Favorites')).toBe('1'));
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await eventually(async () => expect(await cardTitles(page)).toEqual([GARDENING]));
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await page.getByRole('button', { name: 'Favorites', exact: true }).click();
    await eventually(async () => expect(await cardTitles(page)).toEqual([ASTRONOMY]));

    // The tabs: nothing has been read yet.
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    await page.getByText(MESSAGES.noArticlesFound, { exact: true }).waitFor();
    await page.getByText(MESSAGES.noArticlesFoundHint, { exact: true }).waitFor();
    expect(await pressed(page, 'Favorites')).toBe('false');
    await page.getByRole('button', { name: 'Unread', exact: true }).click();
    await eventually(async () => expect(await cardTitles(page)).toHaveLength(3));

    // Bulk delete of two.
    await page.getByRole('button', { name: 'Select Multiple' }).click();
    await page.getByRole('button', { name: 'Select All', exact: true }).click();
    await page.getByText('3 selected').waitFor();
    await page.getByRole('button', { name: 'Deselect All' }).click();
    await page.getByText('0 selected').waitFor();
    await card(page, BAKING).getByRole('checkbox').check();
    await card(page, CYCLING).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete (2)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 2 articles?' });
    expect(await checkScreen(page, 'dashboard-bulk-delete-confirm')).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete (2)' }).click();
    await toast(page, 'Deleted 2 articles');
    await eventually(async () => expect(await cardTitles(page)).toEqual([ASTRONOMY]));
    expect(await statValue(page, 'Total')).toBe('2');

    // Analytics: Chart.js arrives only when opened.
    const chartScripts: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('AnalyticsBody')) chartScripts.push(request.url());
    });
    await page.getByRole('button', { name: 'Show Analytics' }).click();
    const analytics = page.getByRole('region', { name: 'Reading analytics' });
    await analytics.getByText('2 articles saved').waitFor();
    expect(chartScripts).toHaveLength(1);
    expect(await analytics.getByRole('img').getAttribute('aria-label')).toMatch(/ 2$/);
    expect(await analytics.locator('.top-tags__name').allInnerTexts()).toEqual(['garden', 'home', 'sky']);
    expect(await analytics.getByText('Reading streak').isVisible()).toBe(true);
    expect(await checkScreen(page, 'dashboard-analytics')).toEqual([]);

    // Keyboard shortcuts.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('s');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('url');
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('article-search');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    expect(await checkScreen(page, 'dashboard-shortcuts')).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await analytics.waitFor({ state: 'detached' });

    // The brand on / starts the dashboard over.
    await page.getByRole('button', { name: 'Favorites', exact: true }).click();
    expect(await pressed(page, 'Favorites')).toBe('true');
    await page
      .getByRole('link', { name: /Lectern/ })
      .first()
      .click();
    await eventually(async () => expect(await pressed(page, 'Favorites')).toBe('false'));
    expect(await pressed(page, 'All')).toBe('true');
    await eventually(async () => expect(await cardTitles(page)).toEqual([ASTRONOMY]));
    expect(await checkScreen(page, 'dashboard')).toEqual([]);

    // The server holds the same library.
    await page.getByText('All changes synced').waitFor();
    const { body } = await world.api.as(await tokenOf(page)).get('/articles');
    const byTitle = new Map<string, { is_archived: boolean; is_favorite: boolean; tags: string[] }>(
      body.articles.map((article: { title: string }) => [article.title, article]),
    );
    expect([...byTitle.keys()].sort()).toEqual([GARDENING, ASTRONOMY].sort());
    expect(byTitle.get(GARDENING)).toMatchObject({
      is_archived: true,
      is_favorite: false,
      tags: ['garden', 'home'],
    });
    expect(byTitle.get(ASTRONOMY)).toMatchObject({ is_archived: false, is_favorite: true, tags: ['sky'] });

    // Sign out and in again: the library comes back from the server.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await signIn(page, account);
    await card(page, ASTRONOMY).waitFor();
    expect(await statValue(page, 'Total')).toBe('2');
    await page.context().close();
  });

  it('shows every save error of spec section 8 inline and as an error toast', async () => {
    const page = await world.newPage();
    await signUp(page);

    async function expectSaveError(url: string, message: string) {
      await submitSave(page, url);
      await toast(page, message, 'error');
      await page.locator('.field__error', { hasText: message }).waitFor();
    }

    await expectSaveError(world.site.url('/no-such-page'), MESSAGES.saveNotFound);
    await expectSaveError(
      'http://10.1.2.3/internal',
      "This address points to a private network and can't be saved",
    );

    const answers = [
      { status: 400, body: '', message: MESSAGES.saveInvalid },
      {
        status: 500,
        body: JSON.stringify({ error: SERVER_ERRORS.internal }),
        message: SERVER_ERRORS.internal,
      },
      { status: 502, body: '', message: MESSAGES.saveFailed },
    ];
    for (const answer of answers) {
      await page.route('**/api/articles', (route) =>
        route.fulfill({ status: answer.status, contentType: 'application/json', body: answer.body }),
      );
      await expectSaveError(world.site.url('/baking'), answer.message);
      await page.unroute('**/api/articles');
    }

    await page.route('**/api/articles', (route) => route.abort('connectionrefused'));
    await expectSaveError(world.site.url('/baking'), MESSAGES.saveNetworkError);
    await page.unroute('**/api/articles');
    expect(await statValue(page, 'Total')).toBe('0');
    expect(await checkScreen(page, 'dashboard-save-error')).toEqual([]);
    await page.context().close();
  });

  it('works the same with the network off from the save onward, and the server has it all afterwards', async () => {
    const context = await world.newContext();
    const page = await context.newPage();
    await signUp(page);
    await page.getByText('All changes synced').waitFor();
    await context.setOffline(true);
    await toast(page, 'You’re offline. Changes are kept on this device until you reconnect.');

    for (const [path, tags] of [
      ['/gardening', 'garden'],
      ['/astronomy', 'sky'],
      ['/baking', ''],
      ['/cycling', ''],
      ['/no-such-page', ''],
    ] as const) {
      await submitSave(page, world.site.url(path), tags);
      await card(page, world.site.url(path)).waitFor();
    }
    await toast(page, "You're offline: the article is saved here and will be fetched when you reconnect.");
    expect(await card(page, world.site.url('/gardening')).innerText()).toContain('Waiting to sync');
    await page.getByText(/^Offline · \d+ changes waiting to sync$/).waitFor();
    expect(await statValue(page, 'Total')).toBe('5');

    await page
      .getByRole('complementary', { name: 'Tags' })
      .getByRole('button', { name: /^garden/ })
      .click();
    await eventually(async () => expect(await cardTitles(page)).toEqual([world.site.url('/gardening')]));
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByLabel('Search articles').fill('astronomy');
    await eventually(async () => expect(await cardTitles(page)).toEqual([world.site.url('/astronomy')]));
    await page.getByLabel('Search articles').fill('');
    await page.getByLabel('Sort').selectOption({ label: 'A-Z' });
    await eventually(async () =>
      expect(await cardTitles(page)).toEqual(
        ['/astronomy', '/baking', '/cycling', '/gardening', '/no-such-page'].map((path) =>
          world.site.url(path),
        ),
      ),
    );
    await card(page, world.site.url('/gardening'))
      .getByRole('button', { name: /^Archive / })
      .click();
    await card(page, world.site.url('/astronomy'))
      .getByRole('button', { name: /^Favorite / })
      .click();
    await eventually(async () => expect(await statValue(page, 'Favorites')).toBe('1'));
    await page.getByRole('button', { name: 'Select Multiple' }).click();
    await card(page, world.site.url('/baking')).getByRole('checkbox').check();
    await card(page, world.site.url('/cycling')).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete (2)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete (2)' }).click();
    await eventually(async () => expect(await statValue(page, 'Total')).toBe('3'));
    expect(await checkScreen(page, 'dashboard-offline')).toEqual([]);

    // Logging out now would lose the changes: it asks first.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('dialog', { name: 'Log out and lose unsynced changes?' }).waitFor();
    expect(await checkScreen(page, 'logout-unsynced-warning')).toEqual([]);
    await page.getByRole('button', { name: 'Stay signed in' }).click();

    await context.setOffline(false);
    await toast(page, 'Back online. Syncing your changes.');
    await card(page, ASTRONOMY).waitFor({ timeout: 20_000 });
    const refused = card(page, world.site.url('/no-such-page'));
    await refused.getByText(MESSAGES.saveNotFound).waitFor();
    expect(await checkScreen(page, 'dashboard-refused-save')).toEqual([]);
    await refused.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await refused.waitFor({ state: 'detached' });
    await page.getByText('All changes synced').waitFor();

    const { body } = await world.api.as(await tokenOf(page)).get('/articles');
    const byTitle = new Map<string, { is_archived: boolean; is_favorite: boolean; tags: string[] }>(
      body.articles.map((article: { title: string }) => [article.title, article]),
    );
    expect([...byTitle.keys()].sort()).toEqual([ASTRONOMY, GARDENING]);
    expect(byTitle.get(GARDENING)).toMatchObject({ is_archived: true, tags: ['garden'] });
    expect(byTitle.get(ASTRONOMY)).toMatchObject({ is_favorite: true, tags: ['sky'] });
    await context.close();
  });

  it('saves what a phone shares to /share once the reader confirms', async () => {
    const page = await world.newPage();
    await signUp(page);
    const api = world.api.as(await tokenOf(page));
    const text = `Worth a read: ${world.site.url('/baking')}.`;
    await page.goto(`/share?title=${encodeURIComponent('Bread')}&text=${encodeURIComponent(text)}`);
    // Any site can open /share: nothing is saved until the reader says so.
    await page.getByText('Save this link to your library?').waitFor();
    await page.getByText(world.site.url('/baking'), { exact: true }).waitFor();
    expect(await checkScreen(page, 'share-target-confirm')).toEqual([]);
    await page.waitForTimeout(500);
    expect((await api.get('/articles')).body.articles).toEqual([]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved to your library.').waitFor();
    await page.getByText(BAKING).waitFor();
    expect(await checkScreen(page, 'share-target-saved')).toEqual([]);
    await page.getByRole('link', { name: 'Go to My Articles' }).click();
    await card(page, BAKING).waitFor();

    // Cancel leaves the library as it was.
    await page.goto(`/share?url=${encodeURIComponent(world.site.url('/gardening'))}`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    await page.waitForTimeout(500);
    expect((await api.get('/articles')).body.articles.map((a: { title: string }) => a.title)).toEqual([
      BAKING,
    ]);

    await page.goto('/share?text=nothing%20to%20see');
    await page.getByText('What was shared didn’t include a web link.', { exact: false }).waitFor();
    expect(await checkScreen(page, 'share-target-empty')).toEqual([]);
    await page.context().close();
  });

  it('keeps one look for its stat cards after Highlights, Lists or Profile has been open', async () => {
    const page = await world.newPage();
    await signUp(page);
    const main = page.getByRole('navigation', { name: 'Main' });
    const screens = [
      { name: 'highlights', link: main.getByRole('link', { name: 'Highlights' }), path: '/highlights' },
      { name: 'lists', link: main.getByRole('link', { name: 'Lists' }), path: '/lists' },
      { name: 'profile', link: page.locator('a.navbar__profile'), path: '/profile' },
    ];
    for (const { name, link, path } of screens) {
      // A fresh load each time: a screen's stylesheet arrives with the screen and stays for the page's life.
      await page.goto('/');
      await page.getByRole('heading', { name: 'My Articles' }).waitFor();
      await eventually(async () => expect(await statValue(page, 'Total')).toBe('0'));
      const before = await statCardLook(page, `dashboard-stat-cards-before-${name}`);

      await link.click();
      await page.waitForURL(`**${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await saveScreenshot(page, `stat-cards-on-${name}`);
      await main.getByRole('link', { name: 'Articles' }).click();
      await page.getByRole('heading', { name: 'My Articles' }).waitFor();

      expect(await statCardLook(page, `dashboard-stat-cards-after-${name}`), `after ${name}`).toEqual(before);
    }
    await page.context().close();
  });

  it('renders a long library a page at a time', async () => {
    const account = newAccount();
    const { body } = await world.api.post('/auth/register', account);
    const api = world.api.as(body.token);
    for (let i = 1; i <= 30; i += 1) {
      const answer = await api.post('/articles', { url: world.site.url(`/series/${i}`) });
      expect(answer.status).toBe(201);
    }
    const page = await world.newPage();
    await signIn(page, account);
    await eventually(async () => expect(await statValue(page, 'Total')).toBe('30'));
    // The stats and the grid are read apart: the grid's first page may paint a moment after the total.
    await eventually(async () => expect(await page.locator('article.article-card').count()).toBe(24));
    await page.getByRole('button', { name: 'Show more (6 left)' }).scrollIntoViewIfNeeded();
    await eventually(async () => expect(await page.locator('article.article-card').count()).toBe(30));
    await page.context().close();
  });

  it('builds only the cards near the screen of a long library, down to the last one', async () => {
    const account = newAccount();
    const { body } = await world.api.post('/auth/register', account);
    const api = world.api.as(body.token);
    for (let i = 1; i <= 100; i += 1) {
      const answer = await api.post('/articles', { url: world.site.url(`/series/${i}`) });
      expect(answer.status).toBe(201);
    }
    const page = await world.newPage();
    await signIn(page, account);
    await eventually(async () => expect(await statValue(page, 'Total')).toBe('100'));
    const cards = page.locator('article.article-card');
    // Exact titles: "part 1" would also name parts 10 to 19 and 100.
    const part = (n: number) =>
      page.locator('article.article-card', {
        has: page.getByRole('heading', { name: `Letters from the Coast, part ${n}`, exact: true }),
      });
    // Every card listed: the next page comes as Show more scrolls into view (24, 48, 96, then all).
    const more = page.getByRole('button', { name: /^Show more/ });
    await eventually(async () => {
      if ((await more.count()) > 0) await more.scrollIntoViewIfNeeded({ timeout: 1_000 }).catch(() => {});
      expect(await more.count()).toBe(0);
    }, 20_000);
    await page.evaluate(() => window.scrollTo(0, 0));
    // Past 60 cards the grid builds the rows near the screen only (use-windowed-grid.ts).
    await eventually(async () => expect(await cards.count()).toBeLessThan(60));
    // The rows at the top are built in the frame after the scroll (the count above may drop first).
    await eventually(async () => expect(await part(100).count()).toBe(1));
    expect(await part(1).count()).toBe(0);
    // Scrolled to the end, the last card is built, the first ones are not.
    await eventually(async () => {
      await page.evaluate(() => window.scrollBy(0, 4_000));
      expect(await part(1).count()).toBe(1);
    }, 20_000);
    expect(await cards.count()).toBeLessThan(60);
    expect(await part(100).count()).toBe(0);

    // Flung (a screen a frame), a card shows its title and leaves the lines under it; they are back once
    // the grid stops. Read in the page, in the frame after the last scroll.
    const lookAtACard = async (fling: boolean) => {
      if (fling) {
        window.scrollTo(0, 0);
        for (let frame = 0; frame < 6; frame += 1) {
          window.scrollBy(0, window.innerHeight);
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
      }
      const card = document.querySelector('ul.article-grid article.article-card');
      const visibility = (selector: string) => getComputedStyle(card!.querySelector(selector)!).visibility;
      return {
        flung: document.querySelector('ul.article-grid')!.hasAttribute('data-flung'),
        title: visibility('.article-card__title'),
        source: visibility('.article-card__source'),
        footer: visibility('.article-card__footer'),
      };
    };
    expect(await page.evaluate(lookAtACard, true)).toEqual({
      flung: true,
      title: 'visible',
      source: 'hidden',
      footer: 'hidden',
    });
    await eventually(async () =>
      expect(await page.evaluate(lookAtACard, false)).toEqual({
        flung: false,
        title: 'visible',
        source: 'visible',
        footer: 'visible',
      }),
    );
    await page.context().close();
  });
});
