// Every screen gets the same treatment at phone and desktop sizes: a screenshot, axe-core, and a check that
// nothing makes the page scroll sideways.
import type { Page } from 'playwright-core';
import { seriousAxeViolations } from './axe';
import { DESKTOP, PHONE, SMALLEST_PHONE } from './browser-world';
import { saveScreenshot } from './screenshots';

/** Answers the serious or critical axe violations, and any sideways overflow, at either size (the test expects none). */
export async function checkScreen(page: Page, name: string): Promise<string[]> {
  const original = page.viewportSize() ?? DESKTOP;
  const violations: string[] = [];
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    // Charts and grids settle on the next frames after a resize.
    await page.waitForTimeout(250);
    await saveScreenshot(page, name);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 0) violations.push(`${size.width}px: the page is ${overflow}px wider than the screen`);
    const found = await seriousAxeViolations(page);
    violations.push(...found.map((violation) => `${size.width}px: ${violation}`));
  }
  // The narrowest phones the app supports: nothing may stick out there either.
  await page.setViewportSize(SMALLEST_PHONE);
  await page.waitForTimeout(250);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) violations.push(`360px: the page is ${overflow}px wider than the screen`);
  await page.setViewportSize(original);
  return violations;
}
