// Search answers the same on both engines: the same library saved through the services on SQLite (FTS5)
// and written into PostgreSQL (tsvector), then the same plain word and prefix queries on each. Each answer
// is also checked against the words themselves (every query word in the row, the last one as a prefix),
// and never holds another reader's row.
import { searchTerms, SEARCH_RESULT_LIMIT } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReader, newArticle, openMemoryDb } from '../../testing/memory-db';
import { createTestDatabase, stopTestCluster } from '../../testing/postgres-cluster';
import { insertArticle } from '../../services/articles';
import { searchedIds } from '../../testing/searched-ids';
import { createHighlight, searchHighlights } from '../../services/highlights';
import type { Db } from '../database';
import { openPostgres } from './connection';
import { searchArticleIds, searchHighlightIds } from './search';

// A fixed vocabulary with shared beginnings (prefix queries), accents (folded on both engines), and words
// of every weight class; a seeded random draw makes the same library on every run.
const WORDS = `garden gardening gardener garlic gate gathering kale kelp compost composting harvest harrow
  meadow mead orchard orchid pruning prune seedling seed sapling soil sorrel spinach spindle trellis trowel
  tulip tuber turnip walnut wallflower water watering weed weeding willow wind window winter wisteria
  café cafés naïve élan façade über crème fiancée piñata jalapeño rosé
  river rivet rocket rock rodent rose rosemary sage salad salt sand saw scythe shade shed shovel
  thyme timber tomato tool torch tower 2024 1984 v8 mp3 autumn apple apricot arbor ash aspen`
  .split(/\s+/)
  .filter(Boolean);
const AUTHORS = ['Ada Lovelace', 'Gertrude Jekyll', 'Piet Oudolf', 'Beth Chatto', 'Monty Don'];
const TAGS = ['Kitchen', 'Vegetables', 'Trees', 'Tools', 'Reading'];
const READERS = 3;
const ARTICLES_PER_READER = 100;
const HIGHLIGHTS_PER_READER = 30;

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const draw = random(15);
const pick = <T>(items: readonly T[]): T => items[Math.floor(draw() * items.length)]!;
const phrase = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(draw() * (max - min + 1)) }, () => pick(WORDS)).join(' ');

interface Page {
  id: string;
  owner: number;
  url: string;
  title: string;
  description: string;
  author: string;
  contentText: string;
  tags: string[];
}
interface Mark {
  id: string;
  owner: number;
  articleId: string;
  text: string;
}

const pages: Page[] = [];
const marks: Mark[] = [];
for (let owner = 0; owner < READERS; owner++) {
  for (let n = 0; n < ARTICLES_PER_READER; n++) {
    pages.push({
      id: `a-${owner}-${n}`,
      owner,
      url: `https://example.org/${pick(WORDS)}/${n}-${owner}`,
      title: phrase(2, 4),
      description: phrase(3, 6),
      author: pick(AUTHORS),
      // Punctuation as pages have it: FTS5 splits "e-mail" and "don't" into words, and so must PostgreSQL.
      contentText: `${phrase(10, 25)}, e-mail don't (${phrase(2, 4)}); ${phrase(5, 10)}.`,
      tags: draw() < 0.4 ? [pick(TAGS)] : [],
    });
  }
  for (let n = 0; n < HIGHLIGHTS_PER_READER; n++) {
    const article = pages[owner * ARTICLES_PER_READER + Math.floor(draw() * ARTICLES_PER_READER)]!;
    marks.push({ id: `h-${owner}-${n}`, owner, articleId: article.id, text: phrase(3, 8) });
  }
}
// Ranking that both engines must agree on: a word in the title outranks it in the tags, which outranks it in
// the text (similar lengths, one occurrence each).
pages.push(
  { ...ranked('zephyr', 'title'), id: 'zephyr-title' },
  { ...ranked('zephyr', 'tags'), id: 'zephyr-tags' },
  { ...ranked('zephyr', 'text'), id: 'zephyr-text' },
  // Another reader's word, which reader 0 must never find.
  { ...ranked('quokka', 'title'), id: 'quokka-other', owner: 1 },
  // A word only past the opening that PostgreSQL ranks by (600 characters): still found, whole or typed.
  {
    ...ranked('xylophone', 'text'),
    id: 'deep-text',
    contentText: `${'words and the rest '.repeat(150)} xylophone`,
  },
);
function ranked(word: string, where: 'title' | 'tags' | 'text'): Page {
  return {
    id: '',
    owner: 0,
    url: `https://example.net/${where}/${word}`,
    title: where === 'title' ? `${word} beans peas` : 'beans peas corn',
    description: 'a short page',
    author: 'Nobody',
    contentText: where === 'text' ? `${word} and the rest` : 'words and the rest',
    tags: where === 'tags' ? [word] : [],
  };
}

const PLAIN_QUERIES = [
  'kale compost',
  'garden kale',
  'Café soil',
  'CAFE',
  'naive',
  'über turnip',
  'mail',
  'don',
  'Gertrude',
  'Kitchen',
  'example',
  'zephyr',
  'quokka',
  '2024 tomato',
  'v8',
  'harvest, meadow!',
  'rosé',
  'willow wind',
  'xylophone',
];
// Beginnings of 2 to 6 letters are their own lexemes on PostgreSQL (migrations/0003), longer ones the words
// they begin (0009): both kinds, alone and after a word, accented, and a whole word that begins longer ones.
const PREFIX_QUERIES = [
  'gar',
  'gard',
  'garde',
  'wat',
  'ro',
  'ros',
  'caf',
  'jal',
  'tu',
  'soil sa',
  'kale co',
  'xy',
  'xylo',
  'xyloph',
  'xylophon',
  'cre',
  'fian',
  'gardene',
  'gardening',
  'composti',
  'kale wallflo',
  'wisteri',
  'rosemar',
  'Jalapeñ',
  'jalapeno',
  'fiancée',
  'lovelac',
  'orchard example',
];

/** The ids whose words hold every query word, the last (of two letters or more) as a prefix. */
function oracle(
  rows: { id: string; owner: number; words: string[] }[],
  reader: number,
  query: string,
): string[] {
  const terms = searchTerms(query);
  return rows
    .filter((row) => row.owner === reader)
    .filter((row) =>
      terms.every((term, index) =>
        index === terms.length - 1 && term.length >= 2
          ? row.words.some((word) => word.startsWith(term))
          : row.words.includes(term),
      ),
    )
    .map((row) => row.id);
}

const pageWords = pages.map((page) => ({
  id: page.id,
  owner: page.owner,
  words: searchTerms(
    [page.title, page.description, page.author, page.url, page.contentText, page.tags.join(' ')].join(' '),
  ),
}));
const markWords = marks.map((mark) => ({
  id: mark.id,
  owner: mark.owner,
  words: searchTerms(`${mark.text} ${pages.find((page) => page.id === mark.articleId)!.title}`),
}));

let sqlite: ReturnType<typeof openMemoryDb>;
let postgres: Db;
const readerIds: string[] = [];

beforeAll(async () => {
  // SQLite: through the services, as the server saves. `await` also serves them once they are async.
  sqlite = await openMemoryDb();
  for (let n = 0; n < READERS; n++) readerIds.push(await addReader(sqlite));
  for (const page of pages) {
    await insertArticle(
      sqlite,
      readerIds[page.owner]!,
      newArticle(page.url, {
        id: page.id,
        title: page.title,
        description: page.description,
        author: page.author,
        content_text: page.contentText,
      }),
      page.tags,
    );
  }
  for (const mark of marks)
    await createHighlight(sqlite, readerIds[mark.owner]!, {
      id: mark.id,
      articleId: mark.articleId,
      highlightedText: mark.text,
      positionStart: 0,
      positionEnd: mark.text.length,
    });

  // PostgreSQL: the same rows, written with the builder.
  postgres = await openPostgres(await createTestDatabase());
  const { users, articles, highlights } = postgres.tables;
  const at = new Date().toISOString();
  await postgres.orm
    .insert(users)
    .values(readerIds.map((id) => ({ id, email: `${id}@example.com`, createdAt: at })));
  await postgres.orm.insert(articles).values(
    pages.map((page, n) => ({
      id: page.id,
      userId: readerIds[page.owner]!,
      url: page.url,
      title: page.title,
      description: page.description,
      author: page.author,
      articleType: 'web' as const,
      contentText: page.contentText,
      tagsText: page.tags.join(' '),
      createdAt: new Date(Date.parse(at) + n).toISOString(),
      updatedAt: at,
    })),
  );
  await postgres.orm.insert(highlights).values(
    marks.map((mark) => ({
      id: mark.id,
      userId: readerIds[mark.owner]!,
      articleId: mark.articleId,
      highlightedText: mark.text,
      positionStart: 0,
      positionEnd: mark.text.length,
      createdAt: at,
      updatedAt: at,
    })),
  );
});

afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
  await stopTestCluster();
});

const ownerOf = new Map([...pages, ...marks].map((row) => [row.id, row.owner]));

describe('search on PostgreSQL and on SQLite', () => {
  it.each([...PLAIN_QUERIES, ...PREFIX_QUERIES])('finds the same articles for %j', async (query) => {
    for (let reader = 0; reader < READERS; reader++) {
      const userId = readerIds[reader]!;
      const onSqlite = await searchedIds(sqlite, userId, query);
      const onPostgres = await searchArticleIds(postgres, userId, query);
      const expected = oracle(pageWords, reader, query);
      for (const id of onPostgres) expect(ownerOf.get(id)).toBe(reader);
      if (expected.length < SEARCH_RESULT_LIMIT) {
        expect(new Set(onSqlite)).toEqual(new Set(expected));
        expect(new Set(onPostgres)).toEqual(new Set(expected));
      } else {
        // More matches than an answer holds: each engine answers its best SEARCH_RESULT_LIMIT of them.
        expect(onSqlite).toHaveLength(SEARCH_RESULT_LIMIT);
        expect(onPostgres).toHaveLength(SEARCH_RESULT_LIMIT);
        expect(expected).toEqual(expect.arrayContaining(onPostgres));
      }
    }
  });

  it.each([...PLAIN_QUERIES, ...PREFIX_QUERIES])('finds the same highlights for %j', async (query) => {
    for (let reader = 0; reader < READERS; reader++) {
      const userId = readerIds[reader]!;
      const onSqlite = (await searchHighlights(sqlite, userId, query)).map((highlight) => highlight.id);
      const onPostgres = await searchHighlightIds(postgres, userId, query);
      const expected = oracle(markWords, reader, query);
      for (const id of onPostgres) expect(ownerOf.get(id)).toBe(reader);
      expect(new Set(onSqlite)).toEqual(new Set(expected));
      expect(new Set(onPostgres)).toEqual(new Set(expected));
    }
  });

  it('has queries that find something, and some that find many', () => {
    const counts = [...PLAIN_QUERIES, ...PREFIX_QUERIES].map((query) => oracle(pageWords, 0, query).length);
    expect(counts.filter((count) => count > 0).length).toBeGreaterThan(20);
    expect(Math.max(...counts)).toBeGreaterThan(10);
  });

  it('ranks a word in the title above the tags, and the tags above the text, on both', async () => {
    const userId = readerIds[0]!;
    const onSqlite = await searchedIds(sqlite, userId, 'zephyr');
    expect(onSqlite).toEqual(['zephyr-title', 'zephyr-tags', 'zephyr-text']);
    expect(await searchArticleIds(postgres, userId, 'zephyr')).toEqual(onSqlite);
  });

  it("never answers another reader's rows", async () => {
    expect(await searchArticleIds(postgres, readerIds[0]!, 'quokka')).toEqual([]);
    expect(await searchArticleIds(postgres, readerIds[1]!, 'quokka')).toEqual(['quokka-other']);
    expect(await searchedIds(sqlite, readerIds[0]!, 'quokka')).toEqual([]);
  });

  it('finds nothing for a query without words', async () => {
    expect(await searchArticleIds(postgres, readerIds[0]!, ' -- !! ')).toEqual([]);
    expect(await searchHighlightIds(postgres, readerIds[0]!, '*')).toEqual([]);
  });
});
