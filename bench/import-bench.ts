// Issue 12's figures: a 10,000-row Pocket CSV imported into a fresh library. Time from the upload to all
// rows on the server and to all rows on a signed-in device (the app's own data layer syncing in Node),
// GET /api/health p99 while the queue fetches and extracts pages, and pages extracted per second from a
// local fixture site. Run: npm run bench -- import
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDevice } from '../app/src/data/testing/test-lectern';
import { prose, proseSampler, seededRandom } from './support/seed-text';
import { percentile, report, startProcess } from './support/server-process';

const ROWS = 10_000;
const PAGES_MEASURED_SECONDS = 20;
let missed = false;

function check(name: string, value: string, target: string, ok: boolean): void {
  report(name, value, target, ok);
  if (!ok) missed = true;
}

/** A local site answering every path with a ~25 KB article, as a real page would be. */
async function startArticleSite() {
  const sample = proseSampler(12, 20_000);
  const paragraphs = Array.from({ length: 40 }, () => `<p>${prose(sample, 600)}</p>`).join('\n');
  const page = (title: string) =>
    `<!doctype html><html><head><title>${title}</title><meta name="description" content="A bench page">` +
    `</head><body><article><h1>${title}</h1>${paragraphs}</article></body></html>`;
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`Page ${request.url}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Rows spread over ten years, a skewed handful of tags, a third archived. */
function pocketCsv(origin: string): string {
  const random = seededRandom(5);
  const tags = [
    'news',
    'tech',
    'longread',
    'recipes',
    'science',
    'travel',
    'work',
    'politics',
    'ideas',
    'music',
  ];
  const start = Date.UTC(2015, 0, 1) / 1000;
  let csv = 'title,url,time_added,tags,status\n';
  for (let index = 0; index < ROWS; index += 1) {
    const tag = tags[Math.floor(random() ** 2 * tags.length)]!;
    const added = Math.floor(start + random() * 10 * 365 * 86_400);
    csv += `"Saved article ${index}, part ${index % 7}",${origin}/articles/${index}?ref=pocket,${added},${tag},${index % 3 === 0 ? 'archive' : 'unread'}\n`;
  }
  return csv;
}

async function main() {
  const site = await startArticleSite();
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-import-bench-'));
  const server = await startProcess('sync-server/src/main.ts', {
    DATA_DIR: dataDir,
    FETCH_ALLOWED_ORIGINS: site.origin,
  });
  try {
    const email = 'importer@bench.test';
    const password = 'benchmark password';
    const signUp = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, username: 'Importer' }),
    });
    const { token } = (await signUp.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };

    const device = createTestDevice({ baseUrl: server.url });
    await device.lectern.auth.login({ email, password });

    const csv = pocketCsv(site.origin);
    const form = new FormData();
    form.append('file', new Blob([csv]), 'pocket.csv');
    const started = performance.now();
    const upload = await fetch(`${server.url}/api/imports`, { method: 'POST', headers: auth, body: form });
    const { import: created } = (await upload.json()) as { import: { id: string } };
    const uploadMs = performance.now() - started;

    // All rows on the server; meanwhile the device pulls the feed as it would with its timer.
    let onServerMs = 0;
    let onDeviceMs = 0;
    const serverWatch = (async () => {
      for (;;) {
        const answer = await fetch(`${server.url}/api/imports/${created.id}`, { headers: auth });
        const { import: state } = (await answer.json()) as {
          import: { imported: number; skipped: number; failed: number; total: number };
        };
        if (state.imported + state.skipped + state.failed === state.total) {
          onServerMs = performance.now() - started;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const deviceWatch = (async () => {
      for (;;) {
        await device.lectern.sync.syncNow();
        const { stats } = await device.lectern.articles.list({});
        if (stats.total >= ROWS) {
          onDeviceMs = performance.now() - started;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    await Promise.all([serverWatch, deviceWatch]);

    // Health while the queue fetches and extracts, and how many pages it gets through.
    const health: number[] = [];
    const pagesAt = async () => {
      const answer = await fetch(`${server.url}/api/imports/${created.id}`, { headers: auth });
      const { import: state } = (await answer.json()) as { import: { pages_fetched: number } };
      return state.pages_fetched;
    };
    const firstPages = await pagesAt();
    const firstAt = performance.now();
    while (performance.now() - firstAt < PAGES_MEASURED_SECONDS * 1000) {
      const before = performance.now();
      await fetch(`${server.url}/api/health`);
      health.push(performance.now() - before);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const pagesPerSecond = ((await pagesAt()) - firstPages) / ((performance.now() - firstAt) / 1000);

    console.log(`upload answered (202) in ${uploadMs.toFixed(0)} ms`);
    check(
      `${ROWS.toLocaleString('en-US')} Pocket rows on the server after upload`,
      `${(onServerMs / 1000).toFixed(2)} s`,
      '≤ 10 s',
      onServerMs <= 10_000,
    );
    check(
      `${ROWS.toLocaleString('en-US')} Pocket rows on a signed-in device`,
      `${(onDeviceMs / 1000).toFixed(2)} s`,
      '≤ 30 s',
      onDeviceMs <= 30_000,
    );
    check(
      `GET /api/health p99 while pages are extracted`,
      `${percentile(health, 99).toFixed(1)} ms`,
      '≤ 100 ms',
      percentile(health, 99) <= 100,
    );
    console.log(
      `pages fetched and extracted per second (fixture site, 25 KB pages): ${pagesPerSecond.toFixed(1)}`,
    );
    await device.lectern.close();
  } finally {
    await server.stop();
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(missed ? 1 : 0);
}

await main();
