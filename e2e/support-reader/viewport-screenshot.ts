// A screenshot of what is on screen (not the whole page), for popups and sheets that sit in the
// viewport: a full-page capture would show them wherever the page happened to be scrolled.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../support/browser-world';

export async function saveViewportScreenshot(page: Page, name: string): Promise<string> {
  const directory = join(repoRoot, 'test-artifacts');
  mkdirSync(directory, { recursive: true });
  const size = page.viewportSize();
  const path = join(directory, `${name}-${size?.width ?? 0}x${size?.height ?? 0}.png`);
  await page.screenshot({ path, animations: 'disabled' });
  return path;
}

/**
 * Scrolls to the top, as a person would (the reader stops restoring its saved position once someone
 * scrolls), so a full-page capture shows the sticky bars where they belong.
 */
export async function scrollToTop(page: Page): Promise<void> {
  await page.mouse.move(10, 300);
  await page.mouse.wheel(0, -100_000);
  await page.waitForFunction(() => window.scrollY === 0);
}
