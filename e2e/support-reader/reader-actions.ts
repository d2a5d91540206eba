// What the reading tests do in the page: pick out text, select it as a reader would.
import type { Page } from 'playwright-core';
import type { BrowserWorld } from '../support/browser-world';
import { tokenOf } from '../support/app-actions';

export interface TextPoint {
  /** A piece of text in the article body. */
  text: string;
  /** Which occurrence of it (0 = first). */
  nth?: number;
  /** Where in it: its start or its end. */
  edge: 'start' | 'end';
}

/**
 * Selects from one point of the body's text to another with the Selection API, as a touch or keyboard
 * selection arrives (no mouse events): the app picks it up from 'selectionchange'.
 */
export async function selectText(page: Page, from: TextPoint, to: TextPoint): Promise<void> {
  await page.evaluate(
    ([start, end]) => {
      const body = document.querySelector('.reader-body');
      if (!body) throw new Error('no article body');
      const locate = (point: typeof start) => {
        const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
        let seen = 0;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const data = (node as Text).data;
          let at = data.indexOf(point.text);
          while (at >= 0) {
            if (seen === (point.nth ?? 0))
              return { node, offset: point.edge === 'start' ? at : at + point.text.length };
            seen += 1;
            at = data.indexOf(point.text, at + 1);
          }
        }
        throw new Error(`"${point.text}" not found in one text node`);
      };
      const a = locate(start);
      const b = locate(end);
      const range = document.createRange();
      range.setStart(a.node, a.offset);
      range.setEnd(b.node, b.offset);
      const selection = document.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    },
    [from, to] as const,
  );
}

/**
 * Drags the mouse from one point of the text to another, as a desktop reader selects. Both points must be
 * on screen together: the caller scrolls the passage into view first.
 */
export async function dragSelect(page: Page, from: TextPoint, to: TextPoint): Promise<void> {
  const points = await page.evaluate(
    ([start, end]) => {
      const body = document.querySelector('.reader-body')!;
      const pointOf = (point: typeof start) => {
        const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
        let seen = 0;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const data = (node as Text).data;
          let at = data.indexOf(point.text);
          while (at >= 0) {
            if (seen === (point.nth ?? 0)) {
              const offset = point.edge === 'start' ? at : at + point.text.length - 1;
              const range = document.createRange();
              range.setStart(node, offset);
              range.setEnd(node, offset + 1);
              const rect = range.getBoundingClientRect();
              return {
                x: point.edge === 'start' ? rect.left + 1 : rect.right - 1,
                y: rect.top + rect.height / 2,
              };
            }
            seen += 1;
            at = data.indexOf(point.text, at + 1);
          }
        }
        throw new Error(`"${point.text}" not found`);
      };
      return [pointOf(start), pointOf(end)] as const;
    },
    [from, to] as const,
  );
  const [start, end] = points;
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 5 });
  await page.mouse.move(end.x, end.y, { steps: 5 });
  await page.mouse.up();
}

/** Texts of the marks that paint each highlight, by highlight id, in document order. */
export async function marksByHighlight(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const result: Record<string, string> = {};
    for (const mark of document.querySelectorAll('.reader-body mark.highlight-mark')) {
      for (const id of (mark.getAttribute('data-highlight-ids') ?? '').split(' ')) {
        result[id] = (result[id] ?? '') + mark.textContent;
      }
    }
    return result;
  });
}

/** Saves articles for the signed-in user straight through the API, then lets the app pull them. */
export async function saveThroughApi(world: BrowserWorld, page: Page, paths: string[]): Promise<string[]> {
  const api = world.api.as(await tokenOf(page));
  const ids: string[] = [];
  for (const path of paths) {
    const answer = await api.post('/articles', { url: world.site.url(path) });
    if (answer.status !== 201 && answer.status !== 200)
      throw new Error(`saving ${path} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    ids.push(answer.body.article.id);
  }
  return ids;
}

/**
 * A fresh visitor's page without the service worker. Under the worker, pictures from other sites fail:
 * the server sends sw.js the page's Content-Security-Policy (connect-src 'self'), which then governs the
 * worker's own fetches of cross-origin images. Until that is fixed these tests look at the app without it.
 */
export async function pageWithoutWorker(
  world: BrowserWorld,
  viewport: { width: number; height: number },
  options: { touch?: boolean } = {},
): Promise<Page> {
  const context = await world.browser.newContext({
    baseURL: world.server.url,
    viewport,
    reducedMotion: 'reduce',
    serviceWorkers: 'block',
    hasTouch: options.touch ?? false,
    isMobile: options.touch ?? false,
  });
  return context.newPage();
}

/** The narrowest phone the app supports. */
export const SMALL_PHONE = { width: 360, height: 740 };

/** How far the page reaches past the right edge of the viewport (0 when nothing scrolls sideways). */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
