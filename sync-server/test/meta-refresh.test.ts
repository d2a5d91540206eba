// Saving pages that carry a <meta http-equiv="refresh">, through the real server and a local site: only
// an http(s) refresh the parsed page really has is followed, and it is checked like any redirect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp } from './support/api-client';
import { articlePage, DEFAULT_PAGES, startFixtureSite, type FixtureSite } from './support/fixture-site';

const PRIVATE = "This address points to a private network and can't be saved";

/** A readable article whose <head> also carries `head`. */
function pageWith(title: string, head: string): string {
  const paragraph = (topic: string) =>
    `This paragraph about ${topic} is long enough for Readability to treat it as real prose, with several ` +
    `clauses, commas and full sentences, so that the page scores as an article and not as a stub.`;
  return articlePage({
    title,
    paragraphs: [paragraph('tide tables'), paragraph('harbour walls'), paragraph('lighthouses')],
  }).replace('</head>', `${head}</head>`);
}

const refreshTo = (target: string, seconds = 0) =>
  `<meta http-equiv="refresh" content="${seconds};url=${target.replace(/"/g, '&quot;')}">`;

const PAGES: Record<string, string> = {
  ...DEFAULT_PAGES,
  '/refresh-javascript': pageWith('Refresh to javascript', refreshTo('javascript:alert(document.cookie)')),
  '/refresh-data': pageWith('Refresh to data', refreshTo('data:text/html,<script>alert(1)</script>')),
  '/refresh-mailto': pageWith('Refresh to mailto', refreshTo('mailto:editor@news.example')),
  '/refresh-about': pageWith('Refresh to about', refreshTo('about:blank')),
  // Every CNN article carries this; no current browser sees it.
  '/cnn-style': pageWith(
    'Commented refresh',
    '<!--[if lte IE 9]><meta http-equiv="refresh" content="1;url=/2.218.0/static/unsupp.html" /><![endif]-->',
  ),
  '/2.218.0/static/unsupp.html':
    '<html><head><title>Unsupported browser</title></head><body>Upgrade</body></html>',
  '/noscript-refresh': pageWith('Noscript refresh', `<noscript>${refreshTo('/no-js')}</noscript>`),
  '/no-js': '<html><head><title>Please enable JavaScript</title></head><body>No</body></html>',
  '/moved': `<!doctype html><html><head>${refreshTo('/gardening')}</head><body>Moved</body></html>`,
  '/moved-uppercase': `<html><HEAD><META HTTP-EQUIV="Refresh" CONTENT="0; URL=/astronomy"></HEAD></html>`,
  '/to-private': `<!doctype html><html><head>${refreshTo('http://127.0.0.1:9/admin')}</head></html>`,
  '/to-metadata': `<!doctype html><html><head>${refreshTo('http://169.254.169.254/latest/meta-data/')}</head></html>`,
};

let site: FixtureSite;
let server: TestServer;
let api: ApiClient;
beforeAll(async () => {
  site = await startFixtureSite(PAGES);
  server = await startTestServer({ env: { FETCH_ALLOWED_ORIGINS: site.origin } });
  api = new ApiClient(server.url);
});
afterAll(async () => {
  await server.close();
  await site.close();
});

describe('a meta refresh to a non-web address', () => {
  it.each([
    ['javascript:', '/refresh-javascript', 'Refresh to javascript'],
    ['data:', '/refresh-data', 'Refresh to data'],
    ['mailto:', '/refresh-mailto', 'Refresh to mailto'],
    ['about:', '/refresh-about', 'Refresh to about'],
  ])('(%s) is not followed: the page itself is saved, sanitised', async (_scheme, path, title) => {
    const { client } = await signUp(api);
    const answer = await client.post('/articles', { url: site.url(path) });
    expect(answer.status).toBe(201);
    expect(answer.body.article).toMatchObject({ url: site.url(path), title });
    expect(answer.body.article.content).toContain('harbour walls');
    expect(answer.body.article.content).not.toMatch(/<meta|<script|javascript:|data:text/i);
    const stored = await client.get('/articles');
    expect(stored.body.articles.map((article: { url: string }) => article.url)).toEqual([site.url(path)]);
  });
});

describe('a meta refresh the page does not really have', () => {
  it('inside a conditional comment (CNN) is ignored: the article is saved as itself', async () => {
    const { client } = await signUp(api);
    const answer = await client.post('/articles', { url: site.url('/cnn-style') });
    expect(answer.status).toBe(201);
    expect(answer.body.article).toMatchObject({ url: site.url('/cnn-style'), title: 'Commented refresh' });
    expect(answer.body.article.content).toContain('lighthouses');
  });

  it('inside <noscript> is ignored', async () => {
    const { client } = await signUp(api);
    const answer = await client.post('/articles', { url: site.url('/noscript-refresh') });
    expect(answer.status).toBe(201);
    expect(answer.body.article).toMatchObject({
      url: site.url('/noscript-refresh'),
      title: 'Noscript refresh',
    });
  });
});

describe('a meta refresh to an http(s) address', () => {
  it('is followed, and the article is stored under the address it leads to', async () => {
    const { client } = await signUp(api);
    const answer = await client.post('/articles', { url: site.url('/moved') });
    expect(answer.status).toBe(201);
    expect(answer.body.article).toMatchObject({
      url: site.url('/gardening'),
      title: 'Winter Gardening Guide',
    });
    const upper = await client.post('/articles', { url: site.url('/moved-uppercase') });
    expect(upper.body.article).toMatchObject({
      url: site.url('/astronomy'),
      title: 'Observing Saturn Tonight',
    });
  });

  it.each([
    ['a loopback address', '/to-private'],
    ['the cloud metadata address', '/to-metadata'],
  ])('into private space (%s) is refused like a redirect, and nothing is stored', async (_name, path) => {
    const { client } = await signUp(api);
    const answer = await client.post('/articles', { url: site.url(path) });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: PRIVATE });
    expect((await client.get('/articles')).body.articles).toEqual([]);
  });
});
