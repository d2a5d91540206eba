// Issue 5's figures, with issue 16's targets: the JavaScript the dashboard route downloads before it can
// show anything (gzipped, Chart.js excluded: it loads with the analytics), and the time from navigation to
// the first card with 5,000 articles already in the browser's IndexedDB, in Chromium.
// Run: npx tsx bench/dashboard-bench.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { updateArticle } from '../sync-server/src/services/articles';
import { registerUser } from '../sync-server/src/services/users';
import { percentile, repoRoot, startProcess } from './support/server-process';
import { recordFigure } from './support/bench-table';
import { seedArticles, seedDatabase } from './support/seed-library';
import { proseSampler } from './support/seed-text';
import { launchChromium } from '../sync-server/src/testing/launch-chromium';

const ARTICLES = 5_000;
/** Issue 16's targets (issue 5 had 200 KB and 500 ms). */
const INITIAL_JS_TARGET_KB = 130;
const FIRST_CARD_TARGET_MS = 300;
const RUNS = 7;
const ACCOUNT = {
  email: 'dashboard@bench.test',
  password: 'benchmark password',
  username: 'dashboard reader',
};
const APP_DIR = join(repoRoot, 'app', 'dist');

/** The entry script, what it imports statically, and the service worker's registration: what / runs first. */
function initialScripts(): string[] {
  const html = readFileSync(join(APP_DIR, 'index.html'), 'utf8');
  const pending = [...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g)].map((match) => match[1] ?? '');
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(APP_DIR, file), 'utf8');
    // Static imports only (`import{a}from"./x.js"`); `import("./x.js")` is a chunk loaded later.
    for (const match of code.matchAll(/import\s*(?:[\w$*{][^"'()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) {
      pending.push(join(file, '..', match[1] ?? ''));
    }
  }
  return [...seen];
}

function gzippedKb(files: readonly string[]): number {
  return (
    files.reduce((sum, file) => sum + gzipSync(readFileSync(join(APP_DIR, file)), { level: 9 }).length, 0) /
    1024
  );
}

function seedLibrary(dataDir: string) {
  return seedDatabase(dataDir, async (db) => {
    const user = await registerUser(db, ACCOUNT);
    const tags = Array.from({ length: 24 }, (_, i) => `topic ${i + 1}`);
    seedArticles(db, user.id, {
      count: ARTICLES,
      sample: proseSampler(5, 20_000),
      sizes: { text: 600, title: 50, description: 160, author: 14 },
      readingTime: (i) => 1 + (i % 12),
      tags: (i) => [tags[i % tags.length] ?? 'topic', tags[(i * 7) % tags.length] ?? 'topic'],
      afterEach: (id, i) => {
        if (i % 3 === 0) updateArticle(db, user.id, id, { isRead: true });
        if (i % 11 === 0) updateArticle(db, user.id, id, { isFavorite: true });
      },
    });
  });
}

/** Records, in the page, when the first article card is attached: milliseconds after navigation start. */
const FIRST_CARD_PROBE = `
  new MutationObserver((_, observer) => {
    if (document.querySelector('article.article-card')) {
      window.__firstCardMs = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

async function main() {
  console.log('Building the app...');
  const build = spawnSync(process.execPath, [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: repoRoot,
    stdio: 'ignore',
  });
  if (build.status !== 0) throw new Error('vite build failed');
  const scripts = initialScripts();
  const initialKb = gzippedKb(scripts);
  const chartKb = gzippedKb(
    readdirSync(join(APP_DIR, 'assets'))
      .filter((name) => name.startsWith('AnalyticsPanel') && name.endsWith('.js'))
      .map((name) => `assets/${name}`),
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-dashboard-bench-'));
  const browser = await launchChromium();
  try {
    console.log(`Seeding ${ARTICLES.toLocaleString('en')} articles on the server...`);
    await seedLibrary(dataDir);
    const server = await startProcess('sync-server/src/main.ts', { DATA_DIR: dataDir, APP_DIR });
    try {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: 1440, height: 900 },
      });
      await context.addInitScript(FIRST_CARD_PROBE);
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByLabel('Email').fill(ACCOUNT.email);
      await page.getByLabel('Password').fill(ACCOUNT.password);
      const syncStarted = performance.now();
      await page.locator('form').getByRole('button', { name: 'Sign In' }).click();
      await page
        .locator('.stat-card--total .stat-card__value', { hasText: ARTICLES.toLocaleString('en-US') })
        .waitFor({ timeout: 180_000 });
      await page.getByText('All changes synced').waitFor({ timeout: 60_000 });
      const syncSeconds = (performance.now() - syncStarted) / 1000;
      // A returning reader: the service worker has cached the app, and the database has settled after
      // taking 5,000 articles in.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.waitForTimeout(3000);

      const firstCard: number[] = [];
      const phases: string[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        await page.goto('/');
        await page.waitForFunction(() => 'window' in globalThis && '__firstCardMs' in window, null, {
          timeout: 30_000,
        });
        firstCard.push(
          await page.evaluate(() => (window as unknown as { __firstCardMs: number }).__firstCardMs),
        );
        phases.push(
          await page.evaluate(() => {
            const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
            const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
            const me = resources.find((entry) => entry.name.endsWith('/auth/me'));
            return `dom ${navigation?.domContentLoadedEventEnd.toFixed(0)} / user ${me?.responseEnd.toFixed(0)}`;
          }),
        );
      }
      const cards = await page.locator('article.article-card').count();
      // The first load fetched and compiled everything; the ones after are what a returning reader sees.
      const warm = firstCard.slice(1);
      const median = percentile(warm, 50);

      console.log('');
      recordFigure({
        side: 'device',
        figure: 'dashboard initial JS, gzipped',
        size: 0,
        value: `${initialKb.toFixed(1)} KB`,
        target: `<= ${INITIAL_JS_TARGET_KB} KB`,
        ok: initialKb <= INITIAL_JS_TARGET_KB,
      });
      console.log(`      ${scripts.join(', ')} (Chart.js excluded)`);
      console.log(`      analytics chunk loaded on demand: ${chartKb.toFixed(1)} KB gzipped`);
      recordFigure({
        side: 'device',
        figure: 'dashboard first card after navigation (median)',
        size: ARTICLES,
        value: `${median.toFixed(0)} ms`,
        target: `<= ${FIRST_CARD_TARGET_MS} ms`,
        ok: median <= FIRST_CARD_TARGET_MS,
      });
      console.log(
        `      runs: ${firstCard.map((ms) => ms.toFixed(0)).join(', ')} ms (first one cold); ${cards} cards rendered of ${ARTICLES}`,
      );
      console.log(`      page ready / user loaded at: ${phases.join(', ')} ms`);
      console.log(
        `      first sync of ${ARTICLES.toLocaleString('en')} articles into IndexedDB: ${syncSeconds.toFixed(1)} s`,
      );
      await context.close();
    } finally {
      await server.stop();
    }
  } finally {
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
