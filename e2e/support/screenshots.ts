// Screenshots of every screen at phone and desktop sizes, kept in test-artifacts/ to be looked at.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './browser-world';

const ARTIFACTS = join(repoRoot, 'test-artifacts');

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const size = page.viewportSize();
  const path = join(ARTIFACTS, `${name}-${size?.width ?? 0}x${size?.height ?? 0}.png`);
  // From the top, so the sticky navigation bar sits where a reader sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}
