// Issue 10 item 6: a screenshot article's image is the owner's alone, behind the bearer token. The reader's
// "View original" and the highlight card's picture fetch it with the token (one hook), so both show it
// instead of a plain request the server answers with 401.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, tokenOf } from './support/app-actions';
import { DESKTOP, PHONE, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { seriousAxeViolations } from './support/axe';
import { eventually } from './support/eventually';
import { saveScreenshot } from './support/screenshots';
import { saveViewportScreenshot } from './support-reader/viewport-screenshot';

let world: BrowserWorld;

beforeAll(async () => {
  world = await startBrowserWorld();
});

afterAll(async () => {
  await world?.close();
});

/** A picture of a page of text, as a phone's screenshot of an app with no link would be. */
async function textImage(): Promise<Buffer> {
  const page = await world.newPage({ width: 600, height: 400 });
  await page.setContent(`<div style="padding:24px;font:26px/1.5 sans-serif;background:#fff">
    <h1 style="font-size:34px">Quiet Reading Habits</h1>
    <p>Reading slowly in the morning builds a lasting habit.</p>
    <p>Keep a notebook for the passages worth remembering.</p></div>`);
  const image = await page.screenshot({ type: 'png' });
  await page.context().close();
  return image;
}

/** Whether an <img> has decoded a real picture (a 401 or a broken source leaves naturalWidth at 0). */
function decodedWidth(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((img) => (img as HTMLImageElement).naturalWidth);
}

describe('screenshot articles', () => {
  it('View original shows the image, and the highlight card shows it too', async () => {
    const page = await world.newPage(DESKTOP);
    await signUp(page);
    const api = world.api.as(await tokenOf(page));
    const form = new FormData();
    form.append(
      'screenshot',
      new Blob([new Uint8Array(await textImage())], { type: 'image/png' }),
      'shot.png',
    );
    const saved = await api.request('POST', '/articles/screenshot', { body: form });
    expect(saved.status).toBe(201);
    const article = saved.body.article;
    const screenshotPath = `/api/articles/${article.id}/screenshot`;
    expect(article.screenshot_url).toBe(screenshotPath);
    // What a plain browser request gets: the image needs the token.
    expect((await page.request.get(screenshotPath)).status()).toBe(401);

    const highlighted = await api.post('/highlights', {
      articleId: article.id,
      highlightedText: 'Reading slowly',
      positionStart: 0,
      positionEnd: 14,
    });
    expect(highlighted.status).toBe(201);

    await page.goto(`/article/${article.id}`);
    await page.getByRole('heading', { level: 1, name: 'Quiet Reading Habits' }).waitFor();
    const original = page.getByRole('button', { name: 'View original' });
    expect(await page.locator(`a[href="${screenshotPath}"]`).count()).toBe(0);
    await original.click();
    const viewer = page.getByRole('dialog', { name: 'Original screenshot' });
    await viewer.getByRole('img', { name: 'Screenshot: Quiet Reading Habits' }).waitFor();
    await eventually(async () => expect(await decodedWidth(page, '.screenshot-viewer__image')).toBe(600));
    expect(await viewer.locator('img').getAttribute('src')).toMatch(/^blob:/);
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await saveViewportScreenshot(page, 'reader-screenshot-original');
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    await page.goto('/highlights');
    await page.getByText('Reading slowly', { exact: true }).waitFor();
    const cardImage = '.highlight-card img.highlight-card__image';
    await page.locator(cardImage).first().waitFor();
    await eventually(async () => expect(await decodedWidth(page, cardImage)).toBe(600));
    expect(await page.locator(cardImage).first().getAttribute('src')).toMatch(/^blob:/);
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await saveScreenshot(page, 'highlights-screenshot-article');
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });
});
