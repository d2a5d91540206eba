// Issue 14's server figure: the save of an article with 10 images, how long its answer takes, and how long
// until its images are archived (images_pending false in the change feed). Images are 256×256 noise PNGs
// (about 65 KB each), served at once on loopback, and again each 150 ms away (a distant site's usual wait).
// Run: npx tsx bench/image-archive-bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noisePng } from '../sync-server/test/support/noise-png';
import { percentile, report, startProcess } from './support/server-process';

const IMAGES = 10;
const SAVES = 8;
const IMAGE_DELAYS_MS = [0, 150];
const filler =
  'This paragraph is long enough for Readability to treat it as prose, with clauses, commas and full sentences. ';

function articlePage(id: number): string {
  const figures = Array.from(
    { length: IMAGES },
    (_, i) => `<p>${filler.repeat(3)}</p><figure><img src="/img/${id}-${i}.png" alt="figure ${i}"></figure>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ten images ${id}</title>
<meta property="og:image" content="/img/${id}-0.png"></head><body><article><h1>Ten images ${id}</h1>
${figures}</article></body></html>`;
}

async function main() {
  let delayMs = 0;
  const site = createServer((request, response) => {
    const path = request.url ?? '/';
    const image = /^\/img\/(\d+)-(\d+)\.png$/.exec(path);
    if (image) {
      // Every image of every article is a distinct file: nothing is stored once for two of them.
      const bytes = noisePng(256, 256, Number(image[1]) * 100 + Number(image[2]) + 1);
      setTimeout(() => response.writeHead(200, { 'content-type': 'image/png' }).end(bytes), delayMs);
      return;
    }
    const page = /^\/articles\/(\d+)$/.exec(path);
    if (!page) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(Number(page[1])));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-image-archive-bench-'));
  const server = await startProcess('sync-server/src/main.ts', {
    DATA_DIR: dataDir,
    FETCH_ALLOWED_ORIGINS: origin,
  });
  let missed = false;
  try {
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'images@bench.test',
        password: 'benchmark password',
        username: 'Images',
      }),
    });
    const { token } = (await registered.json()) as { token: string };
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    let cursor = 0;
    const readFeed = async () => {
      const answer = await fetch(`${server.url}/api/sync/changes?since=${cursor}&limit=500`, { headers });
      const feed = (await answer.json()) as {
        cursor: number;
        changes: { entity: string; id: string; row: { images_pending?: boolean; content?: string } | null }[];
      };
      cursor = feed.cursor;
      return feed.changes;
    };
    let counter = 0;
    const save = async () => {
      await readFeed(); // the cursor before this save
      counter += 1;
      const started = performance.now();
      const answer = await fetch(`${server.url}/api/articles`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `${origin}/articles/${counter}` }),
      });
      const { article } = (await answer.json()) as { article: { id: string; images_pending: boolean } };
      const answeredMs = performance.now() - started;
      if (answer.status !== 201 || !article.images_pending) throw new Error(`save answered ${answer.status}`);
      for (;;) {
        const change = (await readFeed()).find((c) => c.entity === 'article' && c.id === article.id);
        if (change?.row && change.row.images_pending === false) {
          const archived = (change.row.content?.match(/src="\/api\/images\//g) ?? []).length;
          if (archived !== IMAGES) throw new Error(`${archived} of ${IMAGES} images archived`);
          return { answeredMs, imagesInMs: performance.now() - started };
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    await save(); // warm the extraction worker
    console.log(`${SAVES} saves of an article with ${IMAGES} images (256×256 PNG, ~65 KB each)`);
    for (const delay of IMAGE_DELAYS_MS) {
      delayMs = delay;
      const answered: number[] = [];
      const imagesIn: number[] = [];
      for (let i = 0; i < SAVES; i += 1) {
        const figures = await save();
        answered.push(figures.answeredMs);
        imagesIn.push(figures.imagesInMs);
      }
      const where = delay === 0 ? 'images on loopback' : `each image ${delay} ms away`;
      const [answerMedian, inMedian] = [percentile(answered, 50), percentile(imagesIn, 50)];
      console.log(
        `  ${where}: answer median ${answerMedian.toFixed(0)} ms (p95 ${percentile(answered, 95).toFixed(0)}), ` +
          `images in median ${inMedian.toFixed(0)} ms (p95 ${percentile(imagesIn, 95).toFixed(0)})`,
      );
      // The answer never waits for an image: it must come before even one image's wait.
      const answerOk = delay === 0 ? answerMedian < 500 : answerMedian < delay;
      if (!answerOk) missed = true;
      report(
        `save with ${IMAGES} images: answer, ${where}`,
        `${answerMedian.toFixed(0)} ms`,
        delay === 0 ? 'under 500 ms' : `under one image's ${delay} ms`,
        answerOk,
      );
      // Four images at a time: about three rounds of the site's wait, plus the work.
      const inOk = inMedian < 2_000 + 3 * delay;
      if (!inOk) missed = true;
      report(
        `save with ${IMAGES} images: images in, ${where}`,
        `${inMedian.toFixed(0)} ms`,
        `under ${2_000 + 3 * delay} ms`,
        inOk,
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
