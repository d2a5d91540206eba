// Pages built to make the server's text handling take the square of their size, saved through the real
// server while another client keeps asking GET /api/health: every other user must still get answers, and
// the save itself must end (saved, or refused in words) within seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp } from './support/api-client';
import { articlePage, startFixtureSite, type FixtureSite } from './support/fixture-site';

const MEGABYTE = 1024 * 1024;
const TOO_COMPLEX = 'The page is too large or too complex to read';

const prose = (topic: string) =>
  `This paragraph about ${topic} is long enough for Readability to treat it as real prose, with several ` +
  `clauses, commas and full sentences, so that the page scores as an article and not as a stub.`;
const article = (title: string, extra: string) =>
  articlePage({ title, paragraphs: [prose('tides'), prose('harbours'), prose('lighthouses')] }).replace(
    '</article>',
    `${extra}</article>`,
  );

const PAGES: Record<string, string> = {
  // The meta refresh scanner's lazy `<noscript\b[\s\S]*?<\/noscript>` over this took hours of main thread.
  '/noscripts': '<noscript>'.repeat((5 * MEGABYTE) / 10),
  // The same, after a real <head> and before a real article.
  '/article-then-noscripts': article('Noscript flood', '<noscript>'.repeat((3 * MEGABYTE) / 10)),
  // Closed, nested a few hundred deep, many times over: parses, but Readability reads each subtree per level.
  '/deep-divs': article('Deep divs', `${'<div>'.repeat(2_000)}deep${'</div>'.repeat(2_000)}`.repeat(20)),
  // `,(?=\S+:)` in the srcset splitter, and the lazy-image placeholder pattern over a long src.
  '/srcset-commas': article(
    'Comma srcset',
    `<img src="/a.jpg" srcset="/a.jpg 1x${','.repeat(2 * MEGABYTE)}">`,
  ),
  '/lazy-src': article('Lazy src', `<img src="/${'lazy'.repeat(MEGABYTE / 2)}">`),
  // A refresh whose content is a megabyte of spaces: the old content pattern's `(.+?)\2\s*$` read it squared.
  '/refresh-spaces': article('Spaced refresh', '').replace(
    '</head>',
    `<meta http-equiv="refresh" content="600;${' '.repeat(MEGABYTE)}x">${'<meta name="x" content="y">'.repeat(20_000)}</head>`,
  ),
  // Broken markup on which Readability itself throws: saved with its metadata, not answered with a 500.
  '/unclosed-quotes': article('Unclosed quotes', '').replace(
    '</head>',
    `${'<meta http-equiv="refresh" content="0'.repeat(1_000)}</head>`,
  ),
};

let site: FixtureSite;
let server: TestServer;
let api: ApiClient;
beforeAll(async () => {
  site = await startFixtureSite(PAGES);
  server = await startTestServer({ env: { FETCH_ALLOWED_ORIGINS: site.origin } });
  api = new ApiClient(server.url);
  // Warms the server and starts the extraction worker before anything is timed.
  const { client } = await signUp(api);
  await client.post('/articles', { url: site.url('/lazy-src') });
});
afterAll(async () => {
  await server.close();
  await site.close();
});

/** Saves `path` while timing GET /api/health back to back; answers the save and the health latencies. */
async function saveWhileTimingHealth(path: string) {
  const { client } = await signUp(api);
  const latencies: number[] = [];
  let saving = true;
  const started = performance.now();
  const save = client.post('/articles', { url: site.url(path) }).finally(() => (saving = false));
  const probe = (async () => {
    while (saving) {
      const sent = performance.now();
      const health = await fetch(`${server.url}/api/health`);
      await health.arrayBuffer();
      expect(health.status).toBe(200);
      latencies.push(performance.now() - sent);
    }
  })();
  const answer = await save;
  const seconds = (performance.now() - started) / 1000;
  await probe;
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
  const max = latencies.at(-1) ?? 0;
  console.log(
    `${path}: answered ${answer.status} in ${seconds.toFixed(2)} s; health p99 ${p99.toFixed(0)} ms, ` +
      `max ${max.toFixed(0)} ms over ${latencies.length} requests`,
  );
  return { client, answer, seconds, p99, max };
}

describe('hostile pages do not stall the server', () => {
  it("refuses a 5 MB page of '<noscript>'.repeat(…) within seconds, health answering throughout", async () => {
    const { client, answer, seconds, max } = await saveWhileTimingHealth('/noscripts');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: TOO_COMPLEX });
    expect(seconds).toBeLessThan(10);
    expect(max).toBeLessThan(1000);
    expect((await client.get('/articles')).body.articles).toEqual([]);
  });

  it('refuses an article followed by 3 MB of unclosed <noscript> the same way', async () => {
    const { answer, seconds, max } = await saveWhileTimingHealth('/article-then-noscripts');
    expect(answer.body).toEqual({ error: TOO_COMPLEX });
    expect(seconds).toBeLessThan(10);
    expect(max).toBeLessThan(1000);
  });

  it.each([
    ['/deep-divs', 'Deep divs'],
    ['/srcset-commas', 'Comma srcset'],
    ['/lazy-src', 'Lazy src'],
    ['/refresh-spaces', 'Spaced refresh'],
  ])('saves %s within seconds, health answering throughout', async (path, title) => {
    const { answer, seconds, max } = await saveWhileTimingHealth(path);
    expect(answer.status).toBe(201);
    expect(answer.body.article).toMatchObject({ url: site.url(path), title });
    expect(answer.body.article.content).toContain('lighthouses');
    expect(seconds).toBeLessThan(10);
    expect(max).toBeLessThan(1000);
  });

  it('saves a page Readability cannot take apart with its metadata and no body', async () => {
    const { answer, seconds } = await saveWhileTimingHealth('/unclosed-quotes');
    expect(answer.status).toBe(201);
    expect(answer.body.article).toMatchObject({ title: 'Unclosed quotes', content: null });
    expect(seconds).toBeLessThan(10);
  });
});
