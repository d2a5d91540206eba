// One account saving heavy pages must not make everyone else's saves fail. The pages below cost Readability
// elements × depth (20,000 spans under 120 divs took it 14 s), there is one extraction worker here, and
// the time limit used to start when a page was queued: four of them at once made another user's ordinary
// save wait behind them and fail after 30 s with "too large or too complex".
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setExtractionQueueWait } from '../src/extraction/index';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp } from './support/api-client';
import { DEFAULT_PAGES, startFixtureSite, type FixtureSite } from './support/fixture-site';

const HEAVY =
  '<!doctype html><html><head><title>Heavy page</title></head><body>' +
  `${'<div>'.repeat(120)}${'<span>a</span>'.repeat(110_000)}${'</div>'.repeat(120)}</body></html>`;

/**
 * Below the Readability budget, so really read: two or three seconds of a worker each here, so that four
 * of them queued ahead of another user's save stay well within its 30 s wait even on a loaded machine.
 */
const WEIGHTY =
  '<!doctype html><html><head><title>Weighty page</title></head><body>' +
  `${'<div>'.repeat(120)}${'<span>a</span>'.repeat(2_500)}${'</div>'.repeat(120)}</body></html>`;

let site: FixtureSite;
let server: TestServer;
let api: ApiClient;
beforeAll(async () => {
  site = await startFixtureSite({ ...DEFAULT_PAGES, '/heavy': HEAVY, '/weighty': WEIGHTY });
  server = await startTestServer({ env: { FETCH_ALLOWED_ORIGINS: site.origin } });
  api = new ApiClient(server.url);
  // Starts the extraction worker before anything is timed.
  const { client } = await signUp(api);
  await client.post('/articles', { url: site.url('/baking') });
});
afterAll(async () => {
  await server.close();
  await site.close();
});

describe("one account's heavy pages", () => {
  it("leave another user's ordinary save working, and the server answering", async () => {
    expect(HEAVY.length).toBeGreaterThan(1_500_000);
    const { client: heavySaver } = await signUp(api);
    const { client: reader } = await signUp(api);

    const started = performance.now();
    const heavySaves = Array.from({ length: 4 }, (_, i) =>
      heavySaver.post('/articles', { url: `${site.url('/heavy')}?copy=${i}` }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    const latencies: number[] = [];
    let waiting = true;
    const probe = (async () => {
      while (waiting) {
        const sent = performance.now();
        const health = await fetch(`${server.url}/api/health`);
        await health.arrayBuffer();
        expect(health.status).toBe(200);
        latencies.push(performance.now() - sent);
      }
    })();

    const readerStarted = performance.now();
    const ordinary = await reader.post('/articles', { url: site.url('/gardening') });
    const readerSeconds = (performance.now() - readerStarted) / 1000;
    const heavyAnswers = await Promise.all(heavySaves);
    const allSeconds = (performance.now() - started) / 1000;
    waiting = false;
    await probe;

    console.log(
      `other user's save: ${ordinary.status} in ${readerSeconds.toFixed(1)} s; four heavy saves done in ` +
        `${allSeconds.toFixed(1)} s (${heavyAnswers.map((a) => a.status).join(', ')}); slowest health ` +
        `${Math.max(...latencies).toFixed(0)} ms over ${latencies.length} probes`,
    );
    expect(ordinary.status).toBe(201);
    expect(ordinary.body.article.title).toBe('Winter Gardening Guide');
    expect(readerSeconds).toBeLessThan(15);
    expect(Math.max(...latencies)).toBeLessThan(2_000);
    // The heavy pages are kept with their metadata, no body: too big for Readability, not an error.
    for (const answer of heavyAnswers) {
      expect(answer.status).toBe(201);
      expect(answer.body.article).toMatchObject({ title: 'Heavy page', content: null });
    }
  }, 180_000);

  it('take turns with other users: a queued save of another user goes next, not after all of them', async () => {
    const { client: heavySaver } = await signUp(api);
    const { client: reader } = await signUp(api);
    const finished: string[] = [];
    const heavySaves = Array.from({ length: 4 }, (_, i) =>
      heavySaver
        .post('/articles', { url: `${site.url('/weighty')}?copy=${i}` })
        .then((answer) => (finished.push(`weighty ${i}`), answer)),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ordinary = await reader.post('/articles', { url: site.url('/astronomy') });
    finished.push('ordinary');
    const heavyAnswers = await Promise.all(heavySaves);
    console.log(`order of answers: ${finished.join(', ')}`);
    expect(ordinary.status).toBe(201);
    for (const answer of heavyAnswers) expect(answer.status).toBe(201);
    // Round and round: the reader's page is read right after the heavy saver's first one or two.
    expect(finished.indexOf('ordinary')).toBeLessThan(3);
  }, 180_000);

  it('answer 429 "server busy" to a page that waited too long for a worker, never "too complex"', async () => {
    const busyServer = await startTestServer({
      env: { FETCH_ALLOWED_ORIGINS: site.origin, EXTRACTION_QUEUE_WAIT_MS: '300' },
    });
    try {
      const busyApi = new ApiClient(busyServer.url);
      const { client: heavySaver } = await signUp(busyApi);
      const { client: reader } = await signUp(busyApi);
      const heavy = heavySaver.post('/articles', { url: site.url('/weighty') });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const queued = await reader.post('/articles', { url: site.url('/cycling') });
      expect(queued.status).toBe(429);
      expect(queued.body).toEqual({ error: SERVER_ERRORS.serverBusy });
      expect(queued.headers.get('retry-after')).toBeTruthy();
      expect((await reader.get('/articles')).body.articles).toEqual([]);
      expect((await heavy).status).toBe(201);
    } finally {
      await busyServer.close();
      setExtractionQueueWait(30_000); // the setting is the process's; the other tests run with the default
    }
  }, 60_000);
});
