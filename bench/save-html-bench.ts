// Issue 13's figures: a save that brings the page's HTML (the bookmarklet, the extension) against a save
// of the same 1 MB page by its URL alone (the server fetches it), in the same run, alternating. The page
// server answers at once on loopback, and again with 150 ms before its first byte, a distant site's
// usual wait. Run: npx tsx bench/save-html-bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeArticleHtml } from '../sync-server/test/fixtures/fixture-server';
import { percentile, report, startProcess } from './support/server-process';

const PAGE = largeArticleHtml(1024 * 1024);
const SAVES = 12;
const SITE_DELAYS_MS = [0, 150];

async function main() {
  let delayMs = 0;
  // Every path answers the same page, so each save is of a new address (never "already saved").
  const site = createServer((_request, response) => {
    setTimeout(
      () => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
      delayMs,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-save-html-bench-'));
  const server = await startProcess('sync-server/src/main.ts', {
    DATA_DIR: dataDir,
    FETCH_ALLOWED_ORIGINS: origin,
    SAVES_PER_USER: '100',
  });
  let missed = false;
  try {
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'saver@bench.test', password: 'benchmark password', username: 'Saver' }),
    });
    const { token } = (await registered.json()) as { token: string };
    let counter = 0;
    const save = async (withHtml: boolean): Promise<number> => {
      counter += 1;
      const url = `${origin}/articles/${counter}`;
      const started = performance.now();
      const answer = await fetch(`${server.url}/api/articles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(withHtml ? { url, html: PAGE } : { url }),
      });
      await answer.arrayBuffer();
      if (answer.status !== 201) throw new Error(`save answered ${answer.status}`);
      return performance.now() - started;
    };
    await save(false);
    await save(true); // warm the extraction worker
    console.log(
      `Page: ${(Buffer.byteLength(PAGE) / 1024 / 1024).toFixed(2)} MB; ${SAVES} saves of each kind, alternating`,
    );
    for (const delay of SITE_DELAYS_MS) {
      delayMs = delay;
      const byUrl: number[] = [];
      const withHtml: number[] = [];
      for (let i = 0; i < SAVES; i += 1) {
        byUrl.push(await save(false));
        withHtml.push(await save(true));
      }
      const [urlMedian, htmlMedian] = [percentile(byUrl, 50), percentile(withHtml, 50)];
      const where = delay === 0 ? 'page on loopback' : `page ${delay} ms away`;
      console.log(
        `  ${where}: by URL median ${urlMedian.toFixed(0)} ms (p95 ${percentile(byUrl, 95).toFixed(0)}), ` +
          `with html median ${htmlMedian.toFixed(0)} ms (p95 ${percentile(withHtml, 95).toFixed(0)})`,
      );
      // On loopback the fetch costs next to nothing: both paths are the same extraction, within noise.
      const [ok, target] =
        delay === 0
          ? [htmlMedian < urlMedian * 1.15, 'within 15% of by URL']
          : [htmlMedian < urlMedian, 'html faster'];
      if (!ok) missed = true;
      report(
        `save with html vs by URL, 1 MB, ${where}`,
        `${htmlMedian.toFixed(0)} vs ${urlMedian.toFixed(0)} ms`,
        target,
        ok,
      );
    }
  } finally {
    await server.stop();
    site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (missed) process.exitCode = 1;
}

await main();
