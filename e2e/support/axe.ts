// Runs axe-core in the page and answers the serious and critical violations, described for a failure
// message.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>: the app's Content-Security-Policy rightly refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    // Injected above; its types are axe-core's.
    const axe = (window as unknown as { axe: { run(): Promise<AxeResults> } }).axe;
    return axe.run();
  });
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join('\n  ')}`,
    );
}
