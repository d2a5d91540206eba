/* eslint-disable @typescript-eslint/no-explicit-any -- answers are checked field by field by the assertions */
// /api/imports over HTTP against the local fixture site: every format end to end, states and dates kept,
// highlights attached, duplicates skipped, failures named, owner only, and a restart that resumes.
import { strToU8, zipSync } from 'fflate';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ERRORS } from '@lectern/shared-schema';
import { UNKNOWN_IMPORT_FORMAT } from '@lectern/shared-schema/import-files';
import { testEngine } from '../src/testing/test-database';
import { startTestServer } from '../src/testing/start-test-server';
import { ApiClient, importFinished, signUp } from './support/api-client';
import { DEFAULT_PAGES, startFixtureSite, type FixtureSite } from './support/fixture-site';
import { startWorld, type World } from './support/world';

let world: World;

beforeAll(async () => {
  world = await startWorld({ JOB_RETRY_BASE_MS: '50' });
});

afterAll(async () => {
  await world?.close();
});

function upload(client: ApiClient, file: Uint8Array | string, name = 'export.csv', source?: string) {
  const form = new FormData();
  if (source) form.append('source', source);
  form.append('file', new Blob([file]), name);
  return client.post('/imports', form);
}

async function importFile(client: ApiClient, file: Uint8Array | string, name?: string) {
  const answer = await upload(client, file, name);
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return importFinished(client, answer.body.import.id);
}

async function library(client: ApiClient) {
  const answer = await client.get('/articles');
  expect(answer.status).toBe(200);
  const byUrl = new Map<string, any>();
  for (const article of answer.body.articles) byUrl.set(article.url, article);
  return byUrl;
}

describe('a Pocket CSV', () => {
  let reader: ApiClient;
  let done: any;

  beforeAll(async () => {
    reader = (await signUp(world.api)).client;
    // Already in the library before the import: skipped, not saved twice.
    expect((await reader.post('/articles', { url: world.site.url('/baking') })).status).toBe(201);
    const csv =
      'title,url,time_added,tags,status\n' +
      `My garden notes,${world.site.url('/gardening')},1577836800,garden|Hygge Tips,unread\n` +
      `,${world.site.url('/astronomy')},1609459200,,archive\n` +
      `Dup of baking,${world.site.url('/baking')}?utm_source=pocket,1609459200,,unread\n` +
      `Twice in the file,${world.site.url('/gardening')}#section,1609459200,,unread\n` +
      'Broken,not an address,1609459200,,unread\n' +
      `Gone,${world.site.url('/missing-page')},1612137600,,unread\n`;
    const answer = await upload(reader, csv);
    expect(answer.status).toBe(202);
    expect(answer.body.import).toMatchObject({ source: 'pocket', total: 6, failed: 1 });
    expect(['queued', 'running']).toContain(answer.body.import.status);
    done = await importFinished(reader, answer.body.import.id);
  });

  it('counts what went in, what was skipped and what failed, with the line and the reason', () => {
    expect(done).toMatchObject({
      source: 'pocket',
      status: 'done',
      total: 6,
      imported: 3,
      skipped: 2,
      failed: 1,
      pages_total: 3,
      pages_fetched: 2,
      pages_failed: 1,
      failures: [{ line: 6, url: null, reason: 'Not a valid URL: not an address' }],
    });
    expect(done.finished_at).toEqual(expect.stringMatching(/^\d{4}-/));
  });

  it('keeps the original dates, titles, tags and read state, and fetches each page once', async () => {
    const articles = await library(reader);
    expect(articles.size).toBe(4);
    const garden = articles.get(world.site.url('/gardening'));
    expect(garden).toMatchObject({
      title: 'My garden notes',
      created_at: '2020-01-01T00:00:00.000Z',
      tags: ['garden', 'Hygge Tips'],
      is_archived: false,
      is_read: false,
      author: 'Ada Green',
    });
    expect(garden.fetch_state).toBeUndefined();
    const full = await reader.get(`/articles/${garden.id}`);
    expect(full.body.article.content).toContain('gardening and compost');

    // No title in the file: the page's own.
    expect(articles.get(world.site.url('/astronomy'))).toMatchObject({
      title: 'Observing Saturn Tonight',
      created_at: '2021-01-01T00:00:00.000Z',
      is_archived: true,
      is_read: true,
    });
  });

  it('keeps a page that could not be fetched with the reason, and Retry fetches it again', async () => {
    const articles = await library(reader);
    const gone = articles.get(world.site.url('/missing-page'));
    expect(gone).toMatchObject({
      title: 'Gone',
      fetch_state: 'failed',
      fetch_error: 'The page answered with HTTP status 404',
      created_at: '2021-02-01T00:00:00.000Z',
    });

    DEFAULT_PAGES['/missing-page'] = DEFAULT_PAGES['/baking']!;
    try {
      const retry = await reader.post(`/articles/${gone.id}/fetch`);
      expect(retry.status).toBe(200);
      expect(retry.body.article.fetch_state).toBe('pending');
      let article: any;
      for (let tries = 0; tries < 200; tries += 1) {
        article = (await reader.get(`/articles/${gone.id}`)).body.article;
        if (!article.fetch_state) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(article).toMatchObject({ title: 'Gone', description: 'Starter, flour, water and patience.' });
      expect(article.fetch_state).toBeUndefined();
      expect(article.content).toContain('sourdough starter');
    } finally {
      delete DEFAULT_PAGES['/missing-page'];
    }
    // An article saved whole has nothing to fetch again.
    const garden = articles.get(world.site.url('/gardening'));
    expect((await reader.post(`/articles/${garden.id}/fetch`)).status).toBe(400);
  });

  it('reaches other devices through the change feed', async () => {
    const feed = await reader.get('/sync/changes?since=0&limit=1000');
    const urls = feed.body.changes
      .filter((change: any) => change.entity === 'article' && change.op === 'upsert')
      .map((change: any) => change.row.url);
    expect(urls).toEqual(
      expect.arrayContaining([world.site.url('/gardening'), world.site.url('/astronomy')]),
    );
  });

  it('lists the reader’s imports and hides them from everyone else', async () => {
    const list = await reader.get('/imports');
    expect(list.body.imports.map((item: any) => item.id)).toEqual([done.id]);
    const stranger = (await signUp(world.api)).client;
    expect((await stranger.get(`/imports/${done.id}`)).status).toBe(404);
    expect((await stranger.get('/imports')).body.imports).toEqual([]);
    expect((await world.api.get(`/imports/${done.id}`)).status).toBe(401);
  });
});

describe('every other format', () => {
  it('Instapaper: folders to archive, favorites and tags', async () => {
    const reader = (await signUp(world.api)).client;
    const csv =
      'URL,Title,Selection,Folder,Timestamp,Tags\n' +
      `${world.site.url('/gardening')},Garden,"A selection, quoted",Archive,1577836800,"[""grün""]"\n` +
      `${world.site.url('/astronomy')},Stars,,Starred,1577836801,\n` +
      `${world.site.url('/baking')},Bread,,Recipes,1577836802,\n`;
    const done = await importFile(reader, csv);
    expect(done).toMatchObject({ source: 'instapaper', imported: 3, failed: 0 });
    const articles = await library(reader);
    expect(articles.get(world.site.url('/gardening'))).toMatchObject({ is_archived: true, tags: ['grün'] });
    expect(articles.get(world.site.url('/astronomy'))).toMatchObject({
      is_favorite: true,
      is_archived: false,
    });
    expect(articles.get(world.site.url('/baking'))).toMatchObject({ tags: ['Recipes'] });
  });

  it('Omnivore: the zip’s saved content and highlights, no page fetched', async () => {
    const reader = (await signUp(world.api)).client;
    const metadata = [
      {
        slug: 'a-slug',
        title: 'From Omnivore',
        url: 'https://omnivore.example/article',
        state: 'Archived',
        labels: ['Newsletter'],
        savedAt: '2023-03-01T12:00:00.000Z',
      },
    ];
    const zip = zipSync({
      'metadata_0_to_1.json': strToU8(JSON.stringify(metadata)),
      'content/a-slug.html': strToU8(
        '<div><p>Saved body with a passage worth keeping.</p><script>alert(1)</script></div>',
      ),
      'highlights/a-slug.md': strToU8('> a passage worth keeping\n\nmy note'),
    });
    const done = await importFile(reader, zip, 'omnivore.zip');
    expect(done).toMatchObject({ source: 'omnivore', imported: 1, pages_total: 0 });
    const [article] = [...(await library(reader)).values()];
    expect(article).toMatchObject({
      title: 'From Omnivore',
      is_archived: true,
      tags: ['Newsletter'],
      highlights_count: 1,
      created_at: '2023-03-01T12:00:00.000Z',
    });
    const full = (await reader.get(`/articles/${article.id}`)).body.article;
    expect(full.content).toContain('Saved body with a passage worth keeping.');
    expect(full.content).not.toContain('script');
    const highlights = (await reader.get(`/highlights/article/${article.id}`)).body.highlights;
    expect(highlights.map((item: any) => item.highlighted_text)).toEqual(['a passage worth keeping']);
  });

  it('Wallabag: content, annotations, starred and archived', async () => {
    const reader = (await signUp(world.api)).client;
    const entries = [
      {
        url: 'https://wallabag.example/read',
        title: 'From Wallabag',
        is_archived: 1,
        is_starred: 1,
        tags: ['ökologie'],
        created_at: '2019-05-04T10:00:00+02:00',
        content: '<p>Body text from the export, with a quote inside it.</p>',
        annotations: [{ quote: 'a quote inside it', text: 'note', created_at: '2019-05-05T10:00:00+02:00' }],
      },
    ];
    const done = await importFile(reader, JSON.stringify(entries), 'wallabag.json');
    expect(done).toMatchObject({ source: 'wallabag', imported: 1 });
    const [article] = [...(await library(reader)).values()];
    expect(article).toMatchObject({
      is_archived: true,
      is_favorite: true,
      is_read: true,
      tags: ['ökologie'],
      highlights_count: 1,
      created_at: '2019-05-04T08:00:00.000Z',
    });
  });

  it('Raindrop and browser bookmarks: tags from folders, dates kept', async () => {
    const reader = (await signUp(world.api)).client;
    const raindrop =
      'id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite\n' +
      `1,Rain,,,${world.site.url('/gardening')},Research,"a, b",2024-01-02T03:04:05.000Z,,,true\n`;
    expect(await importFile(reader, raindrop)).toMatchObject({ source: 'raindrop', imported: 1 });
    const bookmarks = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p>
  <DT><H3>Reading</H3>
  <DL><p>
    <DT><A HREF="${world.site.url('/astronomy')}" ADD_DATE="1600000000">Stars</A>
  </DL><p>
</DL><p>`;
    expect(await importFile(reader, bookmarks, 'bookmarks.html')).toMatchObject({
      source: 'bookmarks',
      imported: 1,
    });
    const articles = await library(reader);
    expect(articles.get(world.site.url('/gardening'))).toMatchObject({
      is_favorite: true,
      tags: ['a', 'b', 'Research'],
      created_at: '2024-01-02T03:04:05.000Z',
    });
    expect(articles.get(world.site.url('/astronomy'))).toMatchObject({
      tags: ['Reading'],
      created_at: '2020-09-13T12:26:40.000Z',
    });
  });
});

describe('refusals', () => {
  it('answers 400 naming the formats for a file that is none of them, and stores nothing', async () => {
    const reader = (await signUp(world.api)).client;
    const answer = await upload(reader, 'name,email\nAda,ada@example.com\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: UNKNOWN_IMPORT_FORMAT });
    expect((await reader.get('/imports')).body.imports).toEqual([]);
  });

  it('answers 400 for an unknown source and for a form without the file', async () => {
    const reader = (await signUp(world.api)).client;
    expect((await upload(reader, 'x', 'a.csv', 'delicious')).status).toBe(400);
    const form = new FormData();
    form.append('source', 'pocket');
    expect((await reader.post('/imports', form)).status).toBe(400);
  });

  it('answers 413 for a file over 50 MB', async () => {
    const reader = (await signUp(world.api)).client;
    const answer = await upload(reader, new Uint8Array(50 * 1024 * 1024 + 1));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({
      error: 'The export file is larger than 50 MB. Split it into smaller files.',
    });
  });
});

describe('abuse', () => {
  /** Times GET /api/health every 20 ms while `work` runs; answers the slowest answer. */
  async function slowestHealthDuring(work: Promise<unknown>): Promise<number> {
    let done = false;
    let slowest = 0;
    void work.finally(() => (done = true));
    while (!done) {
      const started = performance.now();
      await fetch(`${world.server.url}/api/health`);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await work;
    return slowest;
  }

  it('takes one import file per reader at a time, however many arrive at once', async () => {
    const reader = (await signUp(world.api)).client;
    const csv = `title,url,time_added,tags,status\nA,${world.site.url('/gardening')},1577836800,,unread\n`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => upload(reader, csv)));
    const started = answers.filter((answer) => answer.status === 202);
    const refused = answers.filter((answer) => answer.status === 429);
    // One file is read at a time; a later one may start only once the first is written. The old code
    // started all five at once; how many arrive while the first is read depends on timing.
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(started.length + refused.length).toBe(5);
    for (const answer of refused) {
      expect([SERVER_ERRORS.importReading, SERVER_ERRORS.importRunning]).toContain(answer.body.error);
    }
    for (const answer of started) await importFinished(reader, answer.body.import.id);
    expect((await reader.get('/imports')).body.imports).toHaveLength(started.length);
  });

  it('keeps the server answering while a file floods one row with highlights or shares one body', async () => {
    const reader = (await signUp(world.api)).client;
    const flood = Array.from({ length: 200_000 }, (_, index) => `Highlight: passage number ${index}`).join(
      '\n',
    );
    const raindrop =
      'id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite\n' +
      // A page the server can fetch at once: an unreachable one is tried again with backoff (seconds on
      // PostgreSQL's job runner), which this test is not about.
      `1,Flood,,,${world.site.url('/astronomy')},,,2024-01-02T03:04:05.000Z,,"${flood}",false\n`;
    let slowest = await slowestHealthDuring(importFile(reader, raindrop));
    const [article] = [...(await library(reader)).values()];
    expect(article.highlights_count).toBe(500);
    console.log(`200,000 highlights in one row: kept 500, slowest GET /api/health ${slowest.toFixed(0)} ms`);
    expect(slowest).toBeLessThan(1000);

    const other = (await signUp(world.api)).client;
    const metadata = Array.from({ length: 40 }, (_, index) => ({
      slug: 'same',
      title: `Copy ${index}`,
      url: `https://shared.example/${index}`,
      labels: [],
      savedAt: '2023-03-01T12:00:00.000Z',
    }));
    const body = `<div>${'<p>A long shared body with words in it.</p>'.repeat(15_000)}</div>`;
    const zip = zipSync({
      'metadata_0_to_40.json': strToU8(JSON.stringify(metadata)),
      'content/same.html': strToU8(body),
    });
    slowest = await slowestHealthDuring(importFile(other, zip, 'omnivore.zip'));
    console.log(
      `40 items sharing a ${(body.length / 1e6).toFixed(1)} MB body: slowest health ${slowest.toFixed(0)} ms`,
    );
    // About 120 ms on a quiet machine; the bound leaves room for the whole suite running beside it on two
    // cores (1,023 ms seen once), and still catches the minutes a copied body per row used to cost.
    expect(slowest).toBeLessThan(2500);
    expect((await library(other)).size).toBe(40);
  }, 120_000);

  it('answers a replayed upload (same Idempotency-Key) with the same import, starting no second one', async () => {
    const reader = (await signUp(world.api)).client;
    const csv = `title,url,time_added,tags,status\nA,${world.site.url('/astronomy')},1577836800,,unread\n`;
    const send = () => {
      const form = new FormData();
      form.append('file', new Blob([csv]), 'pocket.csv');
      return reader.post('/imports', form, { headers: { 'idempotency-key': 'import-key-0001' } });
    };
    const first = await send();
    expect(first.status).toBe(202);
    await importFinished(reader, first.body.import.id);
    const again = await send();
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body.import).toMatchObject({ id: first.body.import.id, status: 'done' });
    expect((await reader.get('/imports')).body.imports).toHaveLength(1);
  });
});

describe('a restart in the middle', () => {
  // 1,500 rows and their pages, each its own transaction: about 20 s on SQLite, 70 s on PostgreSQL on a
  // loaded two-core machine (several round trips per transaction), so it has minutes, not seconds.
  it('resumes and finishes with every row exactly once', { timeout: 240_000 }, async () => {
    const site: FixtureSite = await startFixtureSite();
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-restart-'));
    const env = { FETCH_ALLOWED_ORIGINS: site.origin, JOB_RETRY_BASE_MS: '50' };
    try {
      let server = await startTestServer({ env, dataDir });
      const reader = (await signUp(new ApiClient(server.url))).client;
      // Fewer on PostgreSQL, where each row's transaction costs several round trips: still cut midway.
      const rows = testEngine() === 'postgres' ? 500 : 800;
      let csv = 'title,url,time_added,tags,status\n';
      // A page without a picture: its articles queue no image archive beside the pages.
      for (let index = 0; index < rows; index += 1) {
        csv += `Row ${index},${site.url('/astronomy')}?n=${index},${1577836800 + index},imported,unread\n`;
      }
      const answer = await upload(reader, csv);
      expect(answer.status).toBe(202);
      const id = answer.body.import.id;
      // Stop while rows are still being written or their pages fetched.
      await new Promise((resolve) => setTimeout(resolve, 150));
      await server.close();

      server = await startTestServer({ env, dataDir });
      const again = new ApiClient(server.url, reader.token);
      const done = await importFinished(again, id, 3_000);
      expect(done).toMatchObject({ total: rows, imported: rows, skipped: 0, failed: 0, pages_total: rows });
      expect(done.pages_fetched).toBe(rows);
      const articles = (await again.get('/articles')).body.articles;
      expect(articles).toHaveLength(rows);
      expect(new Set(articles.map((article: any) => article.url)).size).toBe(rows);
      expect(articles.every((article: any) => article.fetch_state === undefined)).toBe(true);
      const tags = (await again.get('/tags')).body.tags;
      expect(tags).toEqual([expect.objectContaining({ name: 'imported', article_count: rows })]);
      await server.close();
    } finally {
      await site.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
