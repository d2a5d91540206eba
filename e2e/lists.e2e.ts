// Reading lists in Chromium against the built app and the real server: create a public list with its
// articles, reorder it by button and by keyboard, share it and see the order as an anonymous visitor, make
// it private and see the not-found state, add and remove articles, delete the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { card, signUp, tokenOf } from './support/app-actions';
import { seriousAxeViolations } from './support/axe';
import { DESKTOP, PHONE, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { saveScreenshot } from './support/screenshots';
import { eventually } from './support/eventually';
import {
  pageWithoutWorker,
  saveThroughApi,
  sidewaysOverflow,
  SMALL_PHONE,
} from './support-reader/reader-actions';
import { saveViewportScreenshot } from './support-reader/viewport-screenshot';

let world: BrowserWorld;

beforeAll(async () => {
  world = await startBrowserWorld();
});

afterAll(async () => {
  await world?.close();
});

const GARDEN = 'Winter Gardening Guide';
const SATURN = 'Observing Saturn Tonight';
const BREAD = 'Sourdough Bread Basics';
const CYCLING = 'Café Culture and Cycling in Zürich';

async function listOrder(page: Page): Promise<string[]> {
  return page.locator('.list-article__title').allTextContents();
}

async function publicOrder(page: Page): Promise<string[]> {
  return (await page.locator('.public-card__title').allTextContents()).map((title) =>
    title.replace(' (opens in a new tab)', ''),
  );
}

describe('reading lists', () => {
  it('creates a public list, reorders it, shares it, makes it private, edits and deletes it', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUp(page);
    await saveThroughApi(world, page, ['/gardening', '/astronomy', '/baking', '/cycling']);
    const server = world.api.as(await tokenOf(page));
    await page.reload();
    await card(page, CYCLING).waitFor();

    await page.getByRole('link', { name: 'Lists', exact: true }).click();
    await page.getByRole('heading', { name: 'No reading lists yet' }).waitFor();
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await saveScreenshot(page, 'lists-empty');
    }
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The create form: 'List Name *', optional description, public by default, articles optional.
    await page.getByRole('button', { name: 'New list' }).click();
    const form = page.getByRole('dialog', { name: 'New reading list' });
    await form.getByLabel('List Name *').fill('Weekend reads');
    await form.getByLabel('Description').fill('Long pieces for a slow Saturday.');
    expect(await form.getByLabel('Public').isChecked()).toBe(true);
    for (const title of [BREAD, SATURN, GARDEN]) await form.getByLabel(title).check();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await saveViewportScreenshot(page, 'lists-create');
    await form.getByRole('button', { name: 'Create list' }).click();
    await page.getByText('✓ List "Weekend reads" created successfully!').waitFor();
    await form.waitFor({ state: 'detached' });

    // Newest first, as the picker listed them.
    await eventually(async () => (await listOrder(page)).length === 3);
    expect(await listOrder(page)).toEqual([BREAD, SATURN, GARDEN]);
    const listId = new URL(page.url()).searchParams.get('list') ?? '';
    expect(listId).not.toBe('');

    // Reorder: a button moves the garden guide up; the keyboard sends the bread to the end.
    await page.getByRole('button', { name: `Move ${GARDEN} up` }).click();
    await eventually(async () => (await listOrder(page)).join() === [BREAD, GARDEN, SATURN].join());
    await page.getByRole('button', { name: `Reorder ${BREAD}, position 1 of 3` }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await eventually(async () => (await listOrder(page)).join() === [GARDEN, SATURN, BREAD].join());
    expect(await page.getByRole('status').filter({ hasText: 'moved to position' }).textContent()).toBe(
      `${BREAD} moved to position 3 of 3`,
    );
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      `Reorder ${BREAD}, position 3 of 3`,
    );
    await eventually(async () => {
      const { body } = await server.get(`/lists/${listId}`);
      return body.articles.map((a: { title: string }) => a.title).join() === [GARDEN, SATURN, BREAD].join();
    });

    // The share link: the origin plus /list/{share_id}, copied with its toast.
    const shareUrl = await page.getByLabel('Share link').inputValue();
    const { body: listBody } = await server.get(`/lists/${listId}`);
    expect(shareUrl).toBe(`${world.server.url}/list/${listBody.list.share_id}`);
    await page.getByRole('button', { name: 'Copy share link' }).click();
    await page.getByText('✓ Share URL copied to clipboard!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);

    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await saveScreenshot(page, 'lists');
    }
    await page.setViewportSize(SMALL_PHONE);
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);

    // A visitor with no account sees the list in its order.
    const visitor = await pageWithoutWorker(world, DESKTOP);
    await visitor.goto(new URL(shareUrl).pathname);
    await visitor.getByRole('heading', { level: 1, name: 'Weekend reads' }).waitFor();
    expect(await publicOrder(visitor)).toEqual([GARDEN, SATURN, BREAD]);

    // Private: the share link goes, and the visitor gets the not-found state.
    await page.getByRole('switch', { name: /Public/ }).click();
    await page.getByRole('switch', { name: /Public/, checked: false }).waitFor();
    await page.getByLabel('Share link').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Copy share link' }).count()).toBe(0);
    await eventually(async () => (await server.get(`/lists/${listId}`)).body.list.is_public === false);
    await visitor.reload();
    await visitor.getByRole('heading', { name: 'Reading List Not Found' }).waitFor();
    await visitor.context().close();

    // Add one more, remove one.
    await page.getByRole('button', { name: 'Add articles' }).click();
    const add = page.getByRole('dialog', { name: 'Add articles to “Weekend reads”' });
    await add.getByLabel(CYCLING).check();
    await add.getByRole('button', { name: /^Add 1 article$/ }).click();
    await page.getByText('✓ Added 1 article(s)').waitFor();
    await eventually(async () => (await listOrder(page)).includes(CYCLING));
    await page.getByRole('button', { name: `Remove ${SATURN} from the list` }).click();
    await page.getByText('Article removed from list').waitFor();
    await eventually(async () => (await listOrder(page)).join() === [GARDEN, BREAD, CYCLING].join());
    await eventually(async () => {
      const { body } = await server.get(`/lists/${listId}`);
      return body.articles.map((a: { title: string }) => a.title).join() === [GARDEN, BREAD, CYCLING].join();
    });

    // A phone shows the open list on its own, with a way back to all lists.
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: '← All lists' }).click();
    await page.getByRole('link', { name: /Weekend reads/ }).waitFor();
    await saveScreenshot(page, 'lists-index');
    await page.getByRole('link', { name: /Weekend reads/ }).click();
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Delete list' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete “Weekend reads”?' });
    await confirm.getByRole('button', { name: 'Delete list' }).click();
    await page.getByText('List deleted').waitFor();
    await page.getByRole('heading', { name: 'No reading lists yet' }).waitFor();
    await eventually(async () => (await server.get(`/lists/${listId}`)).status === 404);
    await page.context().close();
  });

  it('a brand-new user creates an empty list, sees it with 0 articles, and fills it later', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    await signUp(page);
    const server = world.api.as(await tokenOf(page));

    await page.getByRole('link', { name: 'Lists', exact: true }).click();
    await page.getByRole('heading', { name: 'No reading lists yet' }).waitFor();
    await page.getByRole('button', { name: 'New list' }).click();
    const form = page.getByRole('dialog', { name: 'New reading list' });
    await form
      .getByText('No saved articles yet. Create the list now and add articles to it later.')
      .waitFor();
    expect(await form.getByText('A list needs at least one article').count()).toBe(0);
    await form.getByLabel('List Name *').fill('Japan trip');
    await form.getByLabel('Description').fill('Kyoto, Osaka and the ferries.');
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await saveViewportScreenshot(page, 'lists-create-empty');
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create list' }).click();
    await page.getByText('✓ List "Japan trip" created successfully!').waitFor();
    await form.waitFor({ state: 'detached' });

    const entry = page.getByRole('link', { name: /Japan trip/ });
    await entry.waitFor();
    expect(await entry.locator('.list-card__meta').innerText()).toContain('0 articles');
    expect(await page.getByText('Select at least one article to add.').count()).toBe(0);
    await eventually(async () => {
      const { status, body } = await server.get('/lists');
      return (
        status === 200 &&
        body.lists.length === 1 &&
        body.lists[0].name === 'Japan trip' &&
        body.lists[0].article_count === 0
      );
    });
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await saveScreenshot(page, 'lists-empty-list');
    }

    // Later: an article saved, then added to the list.
    await saveThroughApi(world, page, ['/gardening']);
    await page.reload();
    await page.getByRole('link', { name: /Japan trip/ }).click();
    await page.getByRole('button', { name: 'Add articles' }).click();
    const add = page.getByRole('dialog', { name: 'Add articles to “Japan trip”' });
    await add.getByLabel(GARDEN).check();
    await add.getByRole('button', { name: /^Add 1 article$/ }).click();
    await page.getByText('✓ Added 1 article(s)').waitFor();
    await eventually(async () => (await listOrder(page)).join() === GARDEN);
    await eventually(async () =>
      (
        await page
          .getByRole('link', { name: /Japan trip/ })
          .locator('.list-card__meta')
          .innerText()
      ).includes('1 article'),
    );
    await eventually(async () => {
      const { body } = await server.get('/lists');
      return body.lists[0].article_count === 1;
    });
    await page.context().close();
  });
});
