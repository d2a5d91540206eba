// The reading view in Chromium against the built app and the real server: reading marks an article read,
// highlights survive a reload at the right place (across a link, the right one of two occurrences),
// deleting one removes its mark, the panel lists a highlight whose text is gone, settings and progress
// stay, a phone selects by touch, and reading and highlighting work offline and reach the server later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { card, newAccount, signIn, signUp, submitSave, tokenOf, type Account } from './support/app-actions';
import { seriousAxeViolations } from './support/axe';
import { DESKTOP, PHONE, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { saveScreenshot } from './support/screenshots';
import { eventually } from './support/eventually';
import {
  dragSelect,
  marksByHighlight,
  pageWithoutWorker,
  selectText,
  sidewaysOverflow,
  SMALL_PHONE,
} from './support-reader/reader-actions';
import { READING, readingPages, startImageSite, type ImageSite } from './support-reader/reading-site';
import { saveViewportScreenshot, scrollToTop } from './support-reader/viewport-screenshot';

let world: BrowserWorld;
let images: ImageSite;
let account: Account;
let articleId = '';

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

const LINKED_PASSAGE = `${READING.linkSentenceStart} ${READING.linkText} ${READING.linkSentenceEnd}`;

function api(token: string) {
  return world.api.as(token);
}

async function openArticle(page: Page) {
  await page.goto(`/article/${articleId}`);
  await page.getByRole('heading', { level: 1, name: READING.title }).waitFor();
  await page.locator('.reader-body[data-highlights-placed]').waitFor();
}

function confirmPopup(page: Page) {
  return page.getByRole('dialog', { name: 'Save highlight' });
}

async function saveSelection(page: Page) {
  const popup = confirmPopup(page);
  await popup.getByRole('button', { name: 'Save highlight' }).click();
  await popup.waitFor({ state: 'detached' });
  await page.getByText('✓ Highlight added!').last().waitFor();
}

describe('reading view', () => {
  it('opens a saved article, marks it read and highlights across a link and the right one of two phrases', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    account = await signUp(page, newAccount('reader'));
    await submitSave(page, world.site.url(READING.path));
    await card(page, READING.title).getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: READING.title }).waitFor();
    articleId = page.url().split('/article/')[1] ?? '';
    const server = api(await tokenOf(page));

    // Opening an unread article marks it read, here and on the server.
    await page.getByRole('button', { name: 'Mark as unread' }).waitFor();
    await eventually(async () => (await server.get(`/articles/${articleId}`)).body.article.is_read === true);
    const byline = await page.locator('.reader-byline').textContent();
    expect(byline).toContain(`By ${READING.author}`);
    expect(byline).toMatch(/Feb 3, 2026.*\d+ min read/);
    // The hero is archived on the server and shown from the device's copy (an object URL), decoded.
    await eventually(async () =>
      /^\/api\/images\//.test((await server.get(`/articles/${articleId}`)).body.article.image_url ?? ''),
    );
    await eventually(() =>
      page
        .locator('.reader-hero')
        .evaluate((img: HTMLImageElement) => img.src.startsWith('blob:') && img.naturalWidth > 0),
    );
    expect(await page.locator('.reader-body a[target="_blank"][rel="noopener noreferrer"]').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'View original' }).getAttribute('href')).toBe(
      world.site.url(READING.path),
    );

    await page.getByRole('button', { name: 'Highlight mode' }).click();
    expect(await page.getByRole('button', { name: 'Highlight mode' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    // A mouse selection from plain text, across the inline link, into plain text again.
    await page.locator('.reader-body p', { hasText: READING.linkText }).scrollIntoViewIfNeeded();
    await dragSelect(
      page,
      { text: READING.linkSentenceStart, edge: 'start' },
      { text: READING.linkSentenceEnd, edge: 'end' },
    );
    await confirmPopup(page).waitFor();
    expect(await confirmPopup(page).getByTestId('highlight-preview').textContent()).toBe(LINKED_PASSAGE);
    await saveViewportScreenshot(page, 'reader-confirm-popup');
    await saveSelection(page);
    let marks = await marksByHighlight(page);
    expect(Object.values(marks)).toEqual([LINKED_PASSAGE]);
    expect(await page.locator('.reader-body a mark.highlight-mark').textContent()).toBe(READING.linkText);

    // Cancelling clears the selection and saves nothing.
    await selectText(page, { text: 'Slow reading', edge: 'start' }, { text: 'Slow reading', edge: 'end' });
    await confirmPopup(page).getByRole('button', { name: 'Cancel' }).click();
    expect(await page.evaluate(() => document.getSelection()?.isCollapsed)).toBe(true);

    // The second of two equal phrases (selected the way touch and keyboard selections arrive).
    await selectText(
      page,
      { text: READING.twice, nth: 1, edge: 'start' },
      { text: READING.twice, nth: 1, edge: 'end' },
    );
    await saveSelection(page);
    const secondParagraph = page.locator('.reader-body p', { hasText: 'better spent on essays' });
    const firstParagraph = page.locator('.reader-body p', { hasText: 'for novels' });
    expect(await secondParagraph.locator('mark').textContent()).toBe(READING.twice);
    expect(await firstParagraph.locator('mark').count()).toBe(0);
    expect(await page.getByTestId('highlight-count').textContent()).toBe('2');

    // The server holds both, with 50 characters of context either side.
    const stored = await eventually(async () => {
      const { body } = await server.get(`/highlights/article/${articleId}`);
      return body.highlights.length === 2 ? body.highlights : null;
    });
    const twice = stored.find((h: { highlighted_text: string }) => h.highlighted_text === READING.twice);
    expect(twice.context_before).toHaveLength(50);
    expect(twice.context_before.endsWith('Others find that ')).toBe(true);
    expect(twice.context_after.startsWith(' is better spent on essays')).toBe(true);
    expect(twice.color).toBe('yellow');

    // After a reload both come back, each where it was made.
    await page.reload();
    await page.locator('.reader-body[data-highlights-placed]').waitFor();
    marks = await marksByHighlight(page);
    expect(Object.values(marks).sort()).toEqual([LINKED_PASSAGE, READING.twice].sort());
    expect(await secondParagraph.locator('mark').textContent()).toBe(READING.twice);
    expect(await firstParagraph.locator('mark').count()).toBe(0);

    // Deleting one asks first, then removes its mark.
    await page.getByRole('button', { name: /^Highlights \d+$/ }).click();
    const panel = page.getByRole('dialog', { name: 'Highlights (2)' });
    await panel.waitFor();
    await panel.getByRole('button', { name: 'Delete highlight' }).last().click();
    const confirm = page.getByRole('dialog', { name: 'Delete this highlight?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Highlight deleted').waitFor();
    await eventually(async () => Object.keys(await marksByHighlight(page)).length === 1);
    await eventually(
      async () => (await server.get(`/highlights/article/${articleId}`)).body.highlights.length === 1,
    );
    expect(await page.getByTestId('highlight-count').textContent()).toBe('1');

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('lists three highlights then "+ n more", shows the ones not placed, keeps settings and progress', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    await signIn(page, account);
    const server = api(await tokenOf(page));
    const make = (text: string, before = '') =>
      server.post('/highlights', {
        articleId,
        highlightedText: text,
        contextBefore: before,
        contextAfter: '',
        positionStart: 0,
        positionEnd: text.length,
        color: 'yellow',
      });
    await make('Attention is the scarce part.');
    await make('the sentence has time to connect'); // overlaps nothing; inside the same paragraph as the next
    await make('time to connect to what you already know'); // overlaps the one before
    await make('A paragraph the author has since rewritten.');
    await page.reload();
    await openArticle(page);
    await eventually(async () => (await page.getByTestId('highlight-count').textContent()) === '5');

    await saveScreenshot(page, 'reader');
    const overlap = page.locator('.reader-body mark.highlight-mark--overlap');
    expect(await overlap.first().textContent()).toBe('time to connect');

    await page.getByRole('button', { name: /^Highlights \d+$/ }).click();
    const panel = page.getByRole('dialog', { name: 'Highlights (5)' });
    await panel.waitFor();
    expect(await panel.locator('li').count()).toBe(3);
    await panel.getByRole('button', { name: '+ 2 more' }).click();
    expect(await panel.locator('li').count()).toBe(5);
    const missing = panel.locator('li[data-placed="false"]');
    expect(await missing.count()).toBe(1);
    expect(await missing.textContent()).toContain('A paragraph the author has since rewritten.');
    expect(await missing.textContent()).toContain('Not placed');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await saveViewportScreenshot(page, 'reader-highlights-panel');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    // Reading settings: larger text and the dark theme, kept across a reload.
    const sizeBefore = await page.locator('.reader-body').evaluate((el) => getComputedStyle(el).fontSize);
    await page.getByRole('button', { name: 'Reading settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Reading settings' });
    await settings.getByRole('button', { name: 'Larger text' }).click();
    await settings.getByLabel('Dark').check();
    await saveViewportScreenshot(page, 'reader-settings');
    expect(await page.evaluate(() => document.documentElement.dataset.readingTheme)).toBe('dark');
    const sizeAfter = await page.locator('.reader-body').evaluate((el) => getComputedStyle(el).fontSize);
    expect(parseFloat(sizeAfter)).toBeGreaterThan(parseFloat(sizeBefore));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.reload();
    await openArticle(page);
    expect(await page.evaluate(() => document.documentElement.dataset.readingTheme)).toBe('dark');
    expect(await page.locator('.reader-body').evaluate((el) => getComputedStyle(el).fontSize)).toBe(
      sizeAfter,
    );
    await scrollToTop(page);
    await saveScreenshot(page, 'reader-dark');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Reading settings' }).click();
    await page.getByRole('dialog', { name: 'Reading settings' }).getByLabel('Light').check();
    await page.keyboard.press('Escape');

    // Reading progress: saved when scrolling stops, synced, and restored on return.
    await page.mouse.wheel(0, 10);
    await page.evaluate(() => {
      const body = document.querySelector('.reader-body')!.getBoundingClientRect();
      const end = body.top + window.scrollY + body.height - window.innerHeight;
      window.scrollTo({ top: end * 0.6, behavior: 'instant' });
    });
    // Earlier scrolling saved some progress already; wait for this position to arrive.
    const progress = await eventually(async () => {
      const { body } = await server.get(`/articles/${articleId}`);
      const stored: number = body.article.reading_progress;
      return Math.abs(stored - 0.6) < 0.05 ? stored : null;
    });
    expect(progress).toBeCloseTo(0.6, 1);
    // Back to the list by history (a click on the sticky bar would make Playwright scroll the page first).
    await page.goBack();
    await page.getByRole('heading', { name: 'My Articles' }).waitFor();
    await card(page, READING.title).getByRole('link').first().click();
    await page.locator('.reader-body').waitFor();
    // Measured once the body's images (filled in from the device's copies) are in and laid out: until
    // then the page is still growing, and the restore follows it on the next frame.
    const restored = await eventually(() =>
      page.evaluate(async () => {
        const images = [...document.querySelectorAll<HTMLImageElement>('.reader-body img')];
        if (images.some((img) => !img.complete || img.naturalWidth === 0)) return null;
        await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
        const body = document.querySelector('.reader-body')!.getBoundingClientRect();
        const end = body.top + window.scrollY + body.height - window.innerHeight;
        const at = window.scrollY / end;
        return at > 0.5 ? at : null;
      }),
    );
    expect(restored).toBeCloseTo(0.6, 1);
    await page.context().close();
  });

  it('shows the no-content fallback with a link to the original', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    await signIn(page, account);
    await submitSave(page, world.site.url('/members-only'));
    await card(page, 'Members Only Digest').getByRole('link').first().click();
    await page.getByText('Full article content could not be extracted.').waitFor();
    expect(await page.locator('.reader-summary').textContent()).toContain('A weekly digest for members');
    expect(await page.getByRole('link', { name: 'Read on the original site' }).getAttribute('href')).toBe(
      world.site.url('/members-only'),
    );
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await saveScreenshot(page, 'reader-no-content');
    }
    await page.context().close();
  });

  it('highlights by touch on a phone', async () => {
    const page = await pageWithoutWorker(world, PHONE, { touch: true });
    await signIn(page, account);
    await openArticle(page);
    await saveScreenshot(page, 'reader');
    await page.setViewportSize(SMALL_PHONE);
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Highlight mode' }).tap();
    await page.locator('.reader-body h2').first().scrollIntoViewIfNeeded();
    await selectText(page, { text: 'Many readers keep', edge: 'start' }, { text: 'for novels', edge: 'end' });
    const popup = confirmPopup(page);
    await popup.waitFor();
    // On a phone the popup is a sheet along the bottom, clear of the system's selection menu.
    const box = (await popup.boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(PHONE.height - 40);
    expect(box.width).toBeGreaterThan(PHONE.width - 40);
    await saveViewportScreenshot(page, 'reader-confirm-popup');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await popup.getByRole('button', { name: 'Save highlight' }).tap();
    await page.getByText('✓ Highlight added!').waitFor();
    const marks = await marksByHighlight(page);
    expect(Object.values(marks)).toContain(`Many readers keep ${READING.twice} for novels`);

    // Tapping a mark opens it with a delete button.
    await page.locator('.reader-body mark', { hasText: 'Many readers keep' }).tap();
    await page
      .getByRole('dialog', { name: 'Highlight' })
      .getByRole('button', { name: 'Delete highlight' })
      .waitFor();
    await saveViewportScreenshot(page, 'reader-mark-popover');
    await page.context().close();
  });

  it('reads and highlights offline, and the server has it all once back online', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    const context = page.context();
    await signIn(page, account);
    const server = api(await tokenOf(page));
    await openArticle(page);
    const before = (await server.get(`/highlights/article/${articleId}`)).body.highlights.length;

    await context.setOffline(true);
    await page.getByRole('link', { name: 'Articles' }).click();
    await card(page, READING.title).getByRole('link').first().click();
    await page.locator('.reader-body[data-highlights-placed]').waitFor();
    await page.getByRole('button', { name: 'Mark as unread' }).click();
    await page.getByRole('button', { name: 'Mark as read' }).waitFor();
    await page.getByRole('button', { name: 'Highlight mode' }).click();
    await selectText(
      page,
      { text: 'Choose a fixed time', edge: 'start' },
      { text: 'Choose a fixed time each day.', edge: 'end' },
    );
    await saveSelection(page);
    expect(Object.values(await marksByHighlight(page))).toContain('Choose a fixed time each day.');
    expect((await server.get(`/highlights/article/${articleId}`)).body.highlights).toHaveLength(before);

    await context.setOffline(false);
    await eventually(async () => {
      const { body } = await server.get(`/highlights/article/${articleId}`);
      return body.highlights.some(
        (h: { highlighted_text: string }) => h.highlighted_text === 'Choose a fixed time each day.',
      );
    }, 30_000);
    await eventually(
      async () => (await server.get(`/articles/${articleId}`)).body.article.is_read === false,
      30_000,
    );
    await context.close();
  });

  it('lists every highlight with its article, the stats, and a search', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    await signIn(page, account);
    const server = api(await tokenOf(page));
    const { body } = await server.get('/highlights');
    await page.getByRole('link', { name: 'Highlights' }).click();
    await page.getByRole('heading', { level: 1, name: 'Highlights' }).waitFor();
    const stats = page.getByRole('list', { name: 'Highlight stats' });
    await eventually(async () =>
      ((await stats.textContent()) ?? '').includes(`${body.stats.total_highlights}Total highlights`),
    );
    expect(await stats.textContent()).toContain(
      `${body.stats.articles_with_highlights}Articles with highlights`,
    );
    expect(await stats.textContent()).toContain(`${body.stats.highlights_this_week}This week`);
    expect(await page.locator('.highlight-card').count()).toBe(body.highlights.length);
    const first = page.locator('.highlight-card').first();
    expect(await first.getByRole('link').textContent()).toBe(READING.title);
    await eventually(() =>
      first
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.src.startsWith('blob:') && img.naturalWidth > 0),
    );
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await saveScreenshot(page, 'highlights');
    }
    await page.setViewportSize(SMALL_PHONE);
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.setViewportSize(DESKTOP);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel('Search highlights').fill('fixed time');
    await eventually(async () => (await page.locator('.highlight-card').count()) === 1);
    expect(await page.locator('.highlight-card blockquote').textContent()).toBe(
      'Choose a fixed time each day.',
    );
    await page.getByLabel('Search highlights').fill('zeppelin');
    await page.getByText('No highlights match “zeppelin”.').waitFor();
    await page.getByLabel('Search highlights').fill('');
    await eventually(async () => (await page.locator('.highlight-card').count()) === body.highlights.length);
    await page.context().close();
  });
});
