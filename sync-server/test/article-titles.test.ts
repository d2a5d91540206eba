// Titles and bylines as saved through the real server, from corpus pages served by a local site (the
// full corpus and its score are in src/extraction/article-title.test.ts).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp } from './support/api-client';
import { startFixtureSite, type FixtureSite } from './support/fixture-site';

const FILES = ['wikipedia-list', 'wikipedia-mozilla', 'bbc', 'bbc-sport', 'cnn', 'wordpress-plain'];

let site: FixtureSite;
let server: TestServer;
let api: ApiClient;
beforeAll(async () => {
  const pages: Record<string, string> = {};
  for (const name of FILES) {
    pages[`/${name}`] = await readFile(new URL(`./fixtures/titles/${name}.html`, import.meta.url), 'utf8');
  }
  site = await startFixtureSite(pages);
  server = await startTestServer({ env: { FETCH_ALLOWED_ORIGINS: site.origin } });
  api = new ApiClient(server.url);
});
afterAll(async () => {
  await server.close();
  await site.close();
});

describe('saving pages titles them as a reader expects', () => {
  it.each([
    ['wikipedia-list', 'List of films featuring time loops'],
    ['wikipedia-mozilla', 'Mozilla'],
    ['bbc', "Obama admits US gun laws are his 'biggest frustration'"],
    ['wordpress-plain', 'Making sourdough at home'],
  ])('%s is saved as "%s"', async (name, title) => {
    const { client } = await signUp(api);
    const answer = await client.post('/articles', { url: site.url(`/${name}`) });
    expect(answer.status).toBe(201);
    expect(answer.body.article.title).toBe(title);
    expect((await client.get(`/articles/${answer.body.article.id}`)).body.article.title).toBe(title);
  });

  it.each([
    ['bbc-sport', 'Published 3 hours ago', null],
    ['cnn', 'Updated 9:12 PM EST, Tue January 7, 2025', 'Ted Barrett'],
  ])('keeps the byline "%s" out of the author', async (name, _byline, author) => {
    const { client } = await signUp(api);
    const answer = await client.post('/articles', { url: site.url(`/${name}`) });
    expect(answer.status).toBe(201);
    expect(answer.body.article.author).toBe(author);
  });
});
