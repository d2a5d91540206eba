// POST /api/articles with `html`: the page as the reader's browser shows it, extracted instead of fetched.
// A real server over real HTTP, with a fixture site for the pages a fetch would read.
import { PAGE_HTML_MAX_BYTES, SERVER_ERRORS } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectInertHtml } from '../src/extraction/inert-html';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { readFixturePage } from './fixtures/fixture-server';
import { ApiClient, signUp } from './support/api-client';
import { articlePage, startFixtureSite, type FixtureSite } from './support/fixture-site';

const prose = (topic: string) =>
  `This paragraph about ${topic} is long enough for Readability to treat it as real prose, with several ` +
  `clauses, commas and full sentences, so that the page scores as an article and not as a stub.`;

const SCRIPT_ARTICLE = articlePage({
  title: 'Tides of the North Sea',
  description: 'Why the tide turns twice a day.',
  paragraphs: [prose('spring tides'), prose('neap tides'), prose('tide tables')],
});

/** What a single-page app serves: an empty shell and a script that writes the article in the browser. */
const SCRIPT_SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tides of the North Sea</title>
<meta name="description" content="Why the tide turns twice a day."></head>
<body><div id="app"></div><script>
document.getElementById('app').innerHTML = ${JSON.stringify(SCRIPT_ARTICLE.replace(/^[\s\S]*<body>|<\/body>[\s\S]*$/g, ''))};
</script></body></html>`;

/** The same page as the browser shows it once the script ran: document.documentElement.outerHTML. */
const SCRIPT_RENDERED = SCRIPT_SHELL.replace('<div id="app"></div>', `<div id="app">${SCRIPT_ARTICLE}</div>`);

let site: FixtureSite;
let server: TestServer;
let api: ApiClient;
beforeAll(async () => {
  site = await startFixtureSite({ '/tides': SCRIPT_SHELL });
  server = await startTestServer({ env: { FETCH_ALLOWED_ORIGINS: site.origin } });
  api = new ApiClient(server.url);
});
afterAll(async () => {
  await server.close();
  await site.close();
});

async function stored(client: ApiClient, id: string) {
  const answer = await client.get(`/articles/${id}`);
  expect(answer.status).toBe(200);
  return answer.body.article;
}

describe('a page that builds its article with JavaScript', () => {
  it('is saved empty by its URL alone and complete with its html', async () => {
    const byUrl = await signUp(api);
    const fetched = await byUrl.client.post('/articles', { url: site.url('/tides') });
    expect(fetched.status).toBe(201);
    expect(fetched.body.article.content).toBeNull();
    expect((await stored(byUrl.client, fetched.body.article.id)).content).toBeNull();

    const { client } = await signUp(api);
    const sent = await client.post('/articles', {
      url: site.url('/tides'),
      html: SCRIPT_RENDERED,
      tags: ['sea'],
    });
    expect(sent.status).toBe(201);
    expect(sent.body.article).toMatchObject({
      url: site.url('/tides'),
      title: 'Tides of the North Sea',
      description: 'Why the tide turns twice a day.',
      tags: ['sea'],
    });
    const article = await stored(client, sent.body.article.id);
    expect(article.content).toContain('neap tides');
    expect(article.content).toContain('tide tables');
    expect(article.content).not.toContain('<script');
    expect(article.reading_time).toBeGreaterThanOrEqual(1);
  });

  it('answers the article already saved (200) when the address is in the library, html or not', async () => {
    const { client } = await signUp(api);
    const first = await client.post('/articles', { url: site.url('/tides'), html: SCRIPT_RENDERED });
    expect(first.status).toBe(201);
    const again = await client.post('/articles', { url: `${site.url('/tides')}#top`, html: SCRIPT_RENDERED });
    expect(again.status).toBe(200);
    expect(again.body.article.id).toBe(first.body.article.id);
    expect((await client.get('/articles')).body.articles).toHaveLength(1);
  });
});

describe('nothing in the html is trusted', () => {
  it("stores nothing executable of the sanitizer tests' XSS page", async () => {
    const { client } = await signUp(api);
    const html = await readFixturePage('xss-article');
    const answer = await client.post('/articles', { url: 'https://ferry.example/notes/night-ferry', html });
    expect(answer.status).toBe(201);
    const article = await stored(client, answer.body.article.id);
    expect(article.title).toBe('Harbour notes: a week on the night ferry');
    expect(article.content).toContain('The first mate has worked the route for nineteen years.');
    expectInertHtml(article.content);
    expect(article.content).not.toMatch(
      /javascript:|vbscript:|<script|<style|<iframe|<svg|<math|<form|<base|<meta|\son\w+=/i,
    );
    for (const field of ['title', 'description', 'author', 'excerpt', 'site_name'] as const) {
      expect(String(article[field] ?? '')).not.toMatch(/<script|javascript:/i);
    }
  });

  it('refuses a page nested too deep to parse in words, within seconds', async () => {
    const { client } = await signUp(api);
    const started = performance.now();
    const answer = await client.post('/articles', {
      url: 'https://deep.example/page',
      html: '<noscript>'.repeat(PAGE_HTML_MAX_BYTES / 10),
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'The page is too large or too complex to read' });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await client.get('/articles')).body.articles).toEqual([]);
  });
});

describe('size limit', () => {
  it('answers 413 for html over 5 MB and stores nothing', async () => {
    const { client } = await signUp(api);
    const html = `<p>${'x'.repeat(PAGE_HTML_MAX_BYTES)}</p>`;
    const answer = await client.post('/articles', { url: 'https://big.example/page', html });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.pageHtmlTooLarge });
    expect(SERVER_ERRORS.pageHtmlTooLarge).toBe('The page is larger than 5 MB');
    expect((await client.get('/articles')).body.articles).toEqual([]);
  });

  it('counts bytes of UTF-8, not characters', async () => {
    const { client } = await signUp(api);
    // 2.7 million characters, 5.4 MB of UTF-8.
    const html = `<p>${'é'.repeat(Math.ceil(PAGE_HTML_MAX_BYTES / 2) + 100_000)}</p>`;
    const answer = await client.post('/articles', { url: 'https://big.example/accents', html });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.pageHtmlTooLarge });
  });

  it('answers 413 for a body past the route limit before reading it all', async () => {
    const { client } = await signUp(api);
    const html = 'x'.repeat(3 * PAGE_HTML_MAX_BYTES);
    const answer = await client.post('/articles', { url: 'https://big.example/huge', html });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: SERVER_ERRORS.tooLarge });
    expect((await client.get('/articles')).body.articles).toEqual([]);
  });

  it('still refuses other JSON bodies over 1 MB', async () => {
    const { client } = await signUp(api);
    const answer = await client.post('/tags', { name: 'x'.repeat(2 * 1024 * 1024) });
    expect(answer.status).toBe(413);
  });
});

describe('whose library', () => {
  it("another user's token saves into their own library, never into this one", async () => {
    const owner = await signUp(api);
    const other = await signUp(api);
    const mine = await owner.client.post('/articles', { url: site.url('/tides'), html: SCRIPT_RENDERED });
    expect(mine.status).toBe(201);

    // The other reader names the owner's article id: refused, the owner's article unchanged.
    const hijack = await other.client.post('/articles', {
      id: mine.body.article.id,
      url: 'https://evil.example/',
      html: articlePage({ title: 'Planted', paragraphs: [prose('planted text')] }),
    });
    expect(hijack.status).toBe(409);
    expect((await stored(owner.client, mine.body.article.id)).title).toBe('Tides of the North Sea');

    // Their own save of a page lands in their library only.
    const theirs = await other.client.post('/articles', {
      url: 'https://evil.example/planted',
      html: articlePage({ title: 'Planted', paragraphs: [prose('planted text')] }),
    });
    expect(theirs.status).toBe(201);
    const ownerTitles = (await owner.client.get('/articles')).body.articles.map(
      (article: { title: string }) => article.title,
    );
    expect(ownerTitles).toEqual(['Tides of the North Sea']);
    expect((await owner.client.get(`/articles/${theirs.body.article.id}`)).status).toBe(404);
  });

  it('refuses a save with html and no token (401), storing nothing', async () => {
    const answer = await api.post('/articles', { url: site.url('/tides'), html: SCRIPT_RENDERED });
    expect(answer.status).toBe(401);
  });
});

describe('relative links', () => {
  it('are resolved against url, and nothing is fetched', async () => {
    const { client } = await signUp(api);
    const html = articlePage({
      title: 'Lighthouse keepers',
      paragraphs: [
        `${prose('lighthouse keepers')} <a href="/about">About us</a>`,
        `${prose('foghorns')} <a href="../archive/">Archive</a>`,
        `${prose('lenses')} <img src="img/lens.jpg" alt="A Fresnel lens">`,
      ],
    });
    // .invalid never resolves: a 201 shows the page was not fetched.
    const url = 'https://keepers.invalid/stories/2026/lighthouses';
    const answer = await client.post('/articles', { url, html });
    expect(answer.status).toBe(201);
    expect(answer.body.article.url).toBe(url);
    // The article as saved; archiving its images later drops the lens, whose host never resolves.
    const article = answer.body.article;
    expect(article.content).toContain('href="https://keepers.invalid/about"');
    expect(article.content).toContain('href="https://keepers.invalid/stories/archive/"');
    expect(article.content).toContain('src="https://keepers.invalid/stories/2026/img/lens.jpg"');
    expect((await stored(client, article.id)).content).toContain('href="https://keepers.invalid/about"');
  });

  it("validates url word for word as before: 'Please enter a URL'", async () => {
    const { client } = await signUp(api);
    const answer = await client.post('/articles', { html: '<p>no address</p>' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'Please enter a URL' });
  });
});
