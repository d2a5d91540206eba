// The Markdown highlights zip and the bookmark file, over HTTP: names, contents, streaming, owner only.
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readImportFile } from '@lectern/shared-schema/import-files';
import { signUp, type ApiClient } from './support/api-client';
import { startWorld, type World } from './support/world';

let world: World;
let reader: ApiClient;
let gardening: { id: string; created_at: string };
let cycling: { id: string; created_at: string };

beforeAll(async () => {
  world = await startWorld({ PUBLIC_URL: 'https://lectern.example' });
  reader = (await signUp(world.api)).client;
  const save = async (path: string, tags?: string[]) => {
    const answer = await reader.post('/articles', { url: world.site.url(path), tags });
    expect(answer.status).toBe(201);
    return answer.body.article;
  };
  gardening = await save('/gardening', ['garden', 'Hygge Tips']);
  cycling = await save('/cycling', ['Zürich']);
  await save('/baking');
  for (const [text, start] of [
    ['the cold months', 40],
    ['compost and "frost"\nsecond line', 10],
  ] as const) {
    const answer = await reader.post('/highlights', {
      articleId: gardening.id,
      highlightedText: text,
      positionStart: start,
      positionEnd: start + text.length,
    });
    expect(answer.status).toBe(201);
  }
  const answer = await reader.post('/highlights', {
    articleId: cycling.id,
    highlightedText: 'café stops',
    positionStart: 5,
    positionEnd: 15,
  });
  expect(answer.status).toBe(201);
});

afterAll(async () => {
  await world?.close();
});

async function download(client: ApiClient, path: string) {
  const response = await fetch(`${world.server.url}/api${path}`, {
    headers: { authorization: `Bearer ${client.token}` },
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const today = () => new Date().toISOString().slice(0, 10);

describe('highlights as Markdown', () => {
  it('downloads lectern-highlights-DATE.zip with one file per highlighted article', async () => {
    const { response, bytes } = await download(reader, '/auth/export/highlights');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="lectern-highlights-${today()}.zip"`,
    );
    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual([
      'Café Culture and Cycling in Zürich.md',
      'Winter Gardening Guide.md',
    ]);

    const markdown = strFromU8(files['Winter Gardening Guide.md']!);
    const readingView = `https://lectern.example/article/${gardening.id}`;
    expect(markdown).toBe(
      [
        '---',
        'title: "Winter Gardening Guide"',
        'author: "Ada Green"',
        `url: "${world.site.url('/gardening')}"`,
        `saved: ${gardening.created_at.slice(0, 10)}`,
        'tags:',
        '  - "garden"',
        '  - "Hygge Tips"',
        `lectern: "${readingView}"`,
        '---',
        '',
        '# Winter Gardening Guide',
        '',
        '> compost and "frost"',
        '> second line',
        '',
        `[Open in Lectern](${readingView}) · ${today()}`,
        '',
        '> the cold months',
        '',
        `[Open in Lectern](${readingView}) · ${today()}`,
        '',
      ].join('\n'),
    );
  });

  it('gives another reader an empty zip, never this reader’s highlights', async () => {
    const stranger = (await signUp(world.api)).client;
    const { response, bytes } = await download(stranger, '/auth/export/highlights');
    expect(response.status).toBe(200);
    expect(Object.keys(unzipSync(bytes))).toEqual([]);
  });

  it('needs a token', async () => {
    expect((await world.api.get('/auth/export/highlights')).status).toBe(401);
    expect((await world.api.get('/auth/export/bookmarks')).status).toBe(401);
  });
});

describe('the library as bookmarks', () => {
  it('downloads lectern-bookmarks-DATE.html that a bookmark importer reads back with tags and dates', async () => {
    const { response, bytes } = await download(reader, '/auth/export/bookmarks');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="lectern-bookmarks-${today()}.html"`,
    );
    const parsed = readImportFile(bytes);
    expect(parsed.source).toBe('bookmarks');
    expect(parsed.failures).toEqual([]);
    const seconds = (iso: string) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString();
    expect(parsed.items.map((item) => [item.url, item.title, item.tags, item.createdAt])).toEqual([
      [
        world.site.url('/gardening'),
        'Winter Gardening Guide',
        ['garden', 'Hygge Tips'],
        seconds(gardening.created_at),
      ],
      [
        world.site.url('/cycling'),
        'Café Culture and Cycling in Zürich',
        ['Zürich'],
        seconds(cycling.created_at),
      ],
      [world.site.url('/baking'), 'Sourdough Bread Basics', [], expect.any(String)],
    ]);
  });
});
