// Writing an import's rows on a fresh database of the run's engine (SQLite or PostgreSQL) with the real migrations: each batch stores the
// articles with their tags and highlights, and the feed carries each entity once, counts included.
import { expect, it } from 'vitest';
import type { Db } from '../db/connection';
import type { PreparedItem } from '../imports/prepare-import';
import { changesOf, newArticle, readerDbPerTest } from '../testing/memory-db';
import { findArticle } from './article-rows';
import { insertArticle } from './articles';
import { getHighlight } from './highlights';
import { getImport, startImport, writeImportBatch } from './imports';
import { getTag, listTags } from './tags';

let db: Db;
let reader: string;

readerDbPerTest((fresh) => ({ db, reader } = fresh));

const item = (url: string, fields: Partial<PreparedItem> = {}): PreparedItem => ({
  line: 1,
  url,
  title: null,
  createdAt: '2020-05-01T10:00:00.000Z',
  tags: [],
  isRead: false,
  isArchived: false,
  isFavorite: false,
  author: null,
  description: 'Saved elsewhere',
  imageUrl: null,
  content: '<p>Carried body</p>',
  contentText: 'Carried body',
  readingTime: 1,
  highlights: [],
  ...fields,
});

it('writes the rows as articles and records each article, highlight and tag once, with its final state', async () => {
  await insertArticle(db, reader, newArticle('https://example.org/known'), []);
  const view = await startImport(db, reader, {
    source: 'pocket',
    items: [
      item('https://example.org/one', {
        tags: ['Garden', 'Imported'],
        highlights: [
          { text: 'first passage', note: null, createdAt: null },
          { text: 'ab', note: null, createdAt: null },
        ],
      }),
      item('https://example.org/two', { tags: ['imported'], isFavorite: true }),
      item('https://example.org/known#again'),
    ],
    failures: [],
  });
  const changes = await changesOf(db, reader, async () => {
    while (await writeImportBatch(db, reader, view.id));
  });
  expect(await getImport(db, reader, view.id)).toMatchObject({ total: 3, imported: 2, skipped: 1 });

  const keys = changes.map((change) => `${change.entity} ${change.id}`);
  expect(new Set(keys).size).toBe(keys.length);
  const imported = (await listTags(db, reader)).find((tag) => tag.name === 'Imported')!;
  expect(imported.article_count).toBe(2);
  expect(changes.find((change) => change.id === imported.id)?.row).toEqual(
    await getTag(db, reader, imported.id),
  );

  const articles = changes.filter((change) => change.entity === 'article');
  expect(articles).toHaveLength(2);
  for (const change of articles) expect(change.row).toEqual(await findArticle(db, reader, change.id));
  const one = articles.find((change) => (change.row as { url: string }).url === 'https://example.org/one');
  expect(one?.row).toMatchObject({ highlights_count: 1, created_at: '2020-05-01T10:00:00.000Z' });

  // "ab" is under 3 characters: not stored, as the reader would refuse it.
  const highlights = changes.filter((change) => change.entity === 'highlight');
  expect(highlights).toHaveLength(1);
  expect(highlights[0]?.row).toEqual(await getHighlight(db, reader, highlights[0]!.id));
  expect(changes).toHaveLength(2 + 1 + 2);
});
