// Moving in and out (issue 12) in Chromium against the built app and the real server: a Pocket CSV
// imported from the import screen, its progress watched to the end (and picked up again after leaving the
// screen), the articles on the dashboard with their original dates and tags, a page that could not be
// fetched with its reason and Retry; then the Markdown and bookmark exports downloaded from the profile
// and read back.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookmarksExportFileName, highlightsExportFileName, MESSAGES } from '@lectern/shared-schema';
import { readImportFile, UNKNOWN_IMPORT_FORMAT } from '@lectern/shared-schema/import-files';
import { articlePage } from '../sync-server/test/support/fixture-site';
import { card, newAccount, signUp, toast, tokenOf } from './support/app-actions';
import { seriousAxeViolations } from './support/axe';
import { DESKTOP, PHONE, startBrowserWorld, type BrowserWorld } from './support/browser-world';
import { saveScreenshot } from './support/screenshots';
import { eventually } from './support/eventually';
import { pageWithoutWorker, sidewaysOverflow, SMALL_PHONE } from './support-reader/reader-actions';

/**
 * A site whose pages answer only while the test lets them (the import stays in progress until then).
 * `/flaky` answers 404 the first time and the page afterwards, as a site that was down for a while.
 */
async function startGatedSite() {
  const waiting: (() => void)[] = [];
  let open = false;
  let flakyAnswers = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const answer = () => {
      if (request.url === '/flaky' && flakyAnswers++ === 0) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not here today');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        articlePage({
          title: `Gated ${request.url}`,
          paragraphs: ['A page that took its time. '.repeat(40)],
        }),
      );
    };
    if (open) answer();
    else waiting.push(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    waiting: () => waiting.length,
    release() {
      open = true;
      for (const answer of waiting.splice(0)) answer();
    },
    /** Pages wait again until the next release. */
    hold() {
      open = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let gated: Awaited<ReturnType<typeof startGatedSite>>;
let world: BrowserWorld;

beforeAll(async () => {
  gated = await startGatedSite();
  world = await startBrowserWorld({ moreAllowedOrigins: [gated.origin] });
});

afterAll(async () => {
  gated?.release();
  await world?.close();
  await gated?.close();
});

async function screenshots(page: Page, name: string) {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await saveScreenshot(page, name);
  }
}

const progress = (page: Page, name: string) => page.getByRole('progressbar', { name });

describe('import and export', () => {
  it('imports a Pocket CSV from the screen, shows it on the dashboard, and exports Markdown and bookmarks', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    await signUp(page, newAccount('importer'));

    // The empty dashboard keeps its words and offers the import.
    await page.getByText('No articles yet - save your first one!', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Import from Pocket, Instapaper…' }).click();
    await page.waitForURL('**/import');
    await page.getByRole('heading', { level: 1, name: 'Import your library' }).waitFor();
    await page.getByText('No imports yet.').waitFor();
    await page.setViewportSize(SMALL_PHONE);
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshots(page, 'import-empty');
    expect(await seriousAxeViolations(page)).toEqual([]);

    const site = world.site;
    const csv =
      'title,url,time_added,tags,status\n' +
      `My garden notes,${site.url('/gardening')},1577836800,garden|Hygge Tips,unread\n` +
      `,${site.url('/astronomy')},1609459200,space,archive\n` +
      `Bread,${site.url('/baking')},1612137600,,unread\n` +
      'Broken,not an address,1609459200,,unread\n' +
      `Gone,${site.url('/missing-page')},1612137600,,unread\n` +
      `Slow one,${gated.origin}/slow-1,1614556800,later,unread\n` +
      `Slow two,${gated.origin}/slow-2,1614556800,later,unread\n` +
      `Flaky,${gated.origin}/flaky,1617235200,,unread\n`;
    // Chosen with the keyboard's control: the file input inside the drop zone.
    await page
      .getByLabel(/Choose your export file/)
      .setInputFiles({ name: 'part_000000.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    // Read in the browser before Start, by the server's own reader: the format and every row of the file.
    const detected = page.locator('.import-file__detected');
    await detected.waitFor();
    expect(await detected.innerText()).toBe('Pocket export, 8 items');
    expect(await page.getByRole('button', { name: 'Start import' }).isEnabled()).toBe(true);
    await screenshots(page, 'import-file-chosen');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Start import' }).click();

    // The server's answer names the file; the rows go in, and two pages wait on the gated site.
    await page.getByRole('heading', { name: 'Pocket export, 8 items' }).waitFor();
    await eventually(async () => (await progress(page, 'Rows added').getAttribute('aria-valuenow')) === '8');
    await eventually(
      async () => (await progress(page, 'Pages fetched').getAttribute('aria-valuenow')) === '4',
    );
    expect(await progress(page, 'Pages fetched').getAttribute('aria-valuemax')).toBe('7');
    await page.getByRole('status').filter({ hasText: 'Fetching pages' }).waitFor();
    await screenshots(page, 'import-in-progress');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Leave: on the dashboard the pages still fetching say so; the imported ones keep their dates and tags.
    await page.goto('/');
    await card(page, 'Slow one').getByText('Fetching page…').waitFor();
    const garden = card(page, 'My garden notes');
    await garden.waitFor();
    expect(await garden.locator('time').getAttribute('datetime')).toBe('2020-01-01T00:00:00.000Z');
    expect(await garden.locator('time').innerText()).toBe('Jan 1, 2020');
    expect(await garden.getByRole('list', { name: 'Tags' }).innerText()).toMatch(/garden\s+Hygge Tips/);
    const gone = card(page, 'Gone');
    await gone.getByText('Couldn’t fetch the page. The page answered with HTTP status 404').waitFor();

    // Come back through the profile: the running import is picked up where the server has got to.
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Import a library' }).click();
    await page.getByRole('heading', { name: 'Pocket export, 8 items' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Fetching pages' }).waitFor();
    // Two at a time per reader: the third page waits in the server's queue.
    expect(gated.waiting()).toBe(2);
    gated.release();

    // Watch it reach the end: the summary and the failed row with its line and reason.
    await page.getByRole('status').filter({ hasText: 'Done' }).waitFor({ timeout: 20_000 });
    expect(await progress(page, 'Rows added').getAttribute('aria-valuetext')).toBe('8 of 8');
    expect(await progress(page, 'Pages fetched').getAttribute('aria-valuetext')).toBe('7 of 7');
    const summary = page.getByRole('list', { name: 'Summary' });
    expect(
      (await summary.getByRole('listitem').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ')),
    ).toEqual(['7 Imported', '0 Already in your library', '1 Failed']);
    expect(await page.getByRole('table').getByRole('row').nth(1).innerText()).toMatch(
      /^5\s+Not a valid URL: not an address$/,
    );
    await page.getByText('2 pages could not be fetched.', { exact: false }).waitFor();
    await page.getByRole('button', { name: /Pocket export, 8 items/ }).waitFor();
    await screenshots(page, 'import-done');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The dashboard: every row, the archived one in the archive, the failed page with Retry.
    await page.getByRole('link', { name: 'Go to your library' }).click();
    await card(page, 'Slow one').waitFor();
    await eventually(async () => (await card(page, 'Slow one').getByText('Fetching page…').count()) === 0);
    await saveScreenshot(page, 'import-dashboard');

    // Retry on a page that is back: the card says it is fetching (the site holds the answer a moment),
    // the reader of it says so too, and the article replaces it once fetched.
    const flaky = card(page, 'Flaky');
    await flaky.getByText('Couldn’t fetch the page. The page answered with HTTP status 404').waitFor();
    gated.hold();
    await flaky.getByRole('button', { name: 'Retry' }).click();
    await toast(page, 'Fetching the page again');
    await flaky.getByText('Fetching page…').waitFor();
    await flaky.getByRole('link', { name: 'Flaky' }).click();
    const fallback = page.locator('.reader-fallback');
    await fallback
      .getByText('Fetching page… the full text appears here once the server has fetched it.')
      .waitFor();
    await fallback.getByText(MESSAGES.noContent).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await eventually(async () => gated.waiting() === 1);
    gated.release();
    await page.getByText('A page that took its time.', { exact: false }).first().waitFor({ timeout: 20_000 });
    expect(await fallback.count()).toBe(0);

    // The reader of a page that could not be fetched says so, with the reason and Retry.
    await page.goto('/');
    await gone.getByRole('link', { name: 'Gone' }).click();
    await fallback.getByText('Couldn’t fetch the page. The page answered with HTTP status 404').waitFor();
    await fallback.getByText(MESSAGES.noContent).waitFor();
    await fallback.getByRole('button', { name: 'Retry' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A highlight to export.
    const server = world.api.as(await tokenOf(page));
    const articles = (await server.get('/articles')).body.articles as { id: string; url: string }[];
    const gardenId = articles.find((article) => article.url === site.url('/gardening'))!.id;
    expect(
      (
        await server.post('/highlights', {
          articleId: gardenId,
          highlightedText: 'frost protection',
          contextBefore: '',
          contextAfter: '',
          positionStart: 0,
          positionEnd: 16,
          color: 'yellow',
        })
      ).status,
    ).toBe(201);

    await page.goto('/profile');
    const highlightsDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export highlights (Markdown)' }).click();
    const zip = await highlightsDownload;
    expect(zip.suggestedFilename()).toBe(highlightsExportFileName(new Date()));
    const files = unzipSync(new Uint8Array(await readFile((await zip.path())!)));
    expect(Object.keys(files)).toEqual(['My garden notes.md']);
    const markdown = strFromU8(files['My garden notes.md']!);
    expect(markdown).toContain('title: "My garden notes"');
    expect(markdown).toContain(`url: "${site.url('/gardening')}"`);
    expect(markdown).toContain('saved: 2020-01-01');
    expect(markdown).toContain('> frost protection');

    const bookmarksDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export bookmarks (HTML)' }).click();
    const html = await bookmarksDownload;
    expect(html.suggestedFilename()).toBe(bookmarksExportFileName(new Date()));
    const parsed = readImportFile(new Uint8Array(await readFile((await html.path())!)));
    expect(parsed.source).toBe('bookmarks');
    const byUrl = new Map(parsed.items.map((item) => [item.url, item]));
    expect(byUrl.size).toBe(7);
    expect(byUrl.get(site.url('/gardening'))).toMatchObject({
      title: 'My garden notes',
      tags: ['garden', 'Hygge Tips'],
      createdAt: '2020-01-01T00:00:00.000Z',
    });
    expect(byUrl.get(site.url('/astronomy'))).toMatchObject({
      tags: ['space'],
      createdAt: '2021-01-01T00:00:00.000Z',
    });

    // Online only: offline, the screen says so and Start waits.
    await page.goto('/import');
    // A finished import stays in the list; the screen opens on a new file.
    await page.getByRole('button', { name: /Pocket export, 8 items/ }).waitFor();
    await page.getByRole('heading', { name: 'Choose a file' }).waitFor();
    await page.context().setOffline(true);
    await page
      .getByText(
        'You’re offline. Importing needs a connection to the server; try again once you’re back online.',
      )
      .first()
      .waitFor();
    await page
      .getByLabel(/Choose your export file/)
      .setInputFiles({ name: 'pocket.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    expect(await page.getByRole('button', { name: 'Start import' }).isDisabled()).toBe(true);
    await page.context().setOffline(false);
    await page.context().close();
  });

  it('reads a chosen file before Start: the refusal of a file that is no export, and a 30 MB file without freezing the screen', async () => {
    const page = await pageWithoutWorker(world, DESKTOP);
    await signUp(page, newAccount('preview'));
    await page.goto('/import');
    const input = page.getByLabel(/Choose (your export|another) file/);
    const start = page.getByRole('button', { name: 'Start import' });

    // Not an export: the server's own words, before Start, and no Start.
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
    const refusal = page.locator('.import-file__preview').getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe(UNKNOWN_IMPORT_FORMAT);
    expect(await start.isDisabled()).toBe(true);
    await screenshots(page, 'import-file-refused');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // 100,000 rows in 30 MB: read by the worker while the page keeps answering.
    const rows = 100_000;
    const title = 'A long saved title that fills the row '.repeat(6);
    let csv = 'title,url,time_added,tags,status\n';
    for (let row = 0; row < rows; row += 1) {
      csv += `"${title}${row}",https://example.com/articles/${row}?from=pocket,1577836800,later|Lange Texte,unread\n`;
    }
    const folder = await mkdtemp(join(tmpdir(), 'lectern-import-'));
    const path = join(folder, 'part_000000.csv');
    await writeFile(path, csv);
    try {
      await page.evaluate(() => {
        // The longest the page goes without running a timer: a busy main thread shows here.
        const state = window as unknown as { longestGap: number; stopTicking: boolean };
        state.longestGap = 0;
        state.stopTicking = false;
        let last = performance.now();
        const tick = () => {
          const now = performance.now();
          state.longestGap = Math.max(state.longestGap, now - last);
          last = now;
          if (!state.stopTicking) setTimeout(tick, 10);
        };
        setTimeout(tick, 10);
      });
      const chosen = Date.now();
      await input.setInputFiles(path);
      await page.getByText('Reading file…').waitFor();
      expect(await start.isDisabled()).toBe(true);
      const detected = page.locator('.import-file__detected');
      await detected.waitFor({ timeout: 60_000 });
      const readMs = Date.now() - chosen;
      const longestGap = await page.evaluate(() => {
        const state = window as unknown as { longestGap: number; stopTicking: boolean };
        state.stopTicking = true;
        return state.longestGap;
      });
      expect(await detected.innerText()).toBe('Pocket export, 100,000 items');
      expect(await start.isEnabled()).toBe(true);
      console.log(
        `import preview: ${(csv.length / 1024 / 1024).toFixed(1)} MB read in ${readMs} ms; ` +
          `longest main-thread gap ${Math.round(longestGap)} ms`,
      );
      expect(csv.length).toBeGreaterThan(30 * 1024 * 1024);
      // Generous: read on the main thread, this file holds it for seconds.
      expect(longestGap).toBeLessThan(1000);

      // The same file again, to see the screen while it is read.
      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await input.setInputFiles(path);
      await page.getByText('Reading file…').waitFor();
      await saveScreenshot(page, 'import-file-reading');
      await detected.waitFor({ timeout: 60_000 });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    await page.context().close();
  });
});
