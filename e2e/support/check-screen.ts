// Every screen gets the same treatment: a screenshot at phone and desktop sizes, and axe-core at both.
import type { Page } from 'playwright-core';
import { seriousAxeViolations } from './axe';
import { DESKTOP, PHONE } from './browser-world';
import { saveScreenshot } from './screenshots';

/** Answers the serious or critical axe violations found at either size (the test expects none). */
export async function checkScreen(page: Page, name: string): Promise<string[]> {
  const original = page.viewportSize() ?? DESKTOP;
  const violations: string[] = [];
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    // Charts and grids settle on the next frames after a resize.
    await page.waitForTimeout(250);
    await saveScreenshot(page, name);
    const found = await seriousAxeViolations(page);
    violations.push(...found.map((violation) => `${size.width}px: ${violation}`));
  }
  await page.setViewportSize(original);
  return violations;
}
