// Offline article search: the server's full-text rules (every word must occur, the last one also as a
// prefix, over title, description, author, url, body text and tag names) on an in-memory index that
// catches up with the database by each row's `rev`, so writes from any tab are found.
import { searchTerms } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { ArticleRow } from '../db/rows';
import { TermIndex, type IndexedField } from './term-index';

/** The server's bm25 column weights, so the best matches come first on both sides. */
const WEIGHTS = { title: 10, description: 4, author: 3, url: 2, text: 1, tags: 5 };

const CATCH_UP_CHUNK = 500;

function fieldsOf(row: ArticleRow, text: string): IndexedField[] {
  return [
    { text: row.title, weight: WEIGHTS.title },
    { text: row.description ?? '', weight: WEIGHTS.description },
    { text: row.author ?? '', weight: WEIGHTS.author },
    { text: row.url, weight: WEIGHTS.url },
    { text, weight: WEIGHTS.text },
    { text: row.tags.join(' '), weight: WEIGHTS.tags },
  ];
}

/** Changes when anything searchable changes; a flag or a highlight count doesn't. */
function signatureOf(row: ArticleRow, text: string): string {
  return JSON.stringify([
    row.title,
    row.description,
    row.author,
    row.url,
    row.tags,
    text.length,
    text.slice(0, 64),
  ]);
}

export function createArticleSearch(db: LecternDb) {
  const index = new TermIndex();
  let indexedRev = 0;

  let indexedBodyRev = 0;

  /**
   * Indexes every article written since the last catch-up (all of them the first time), then every article
   * whose body arrived on its own since (a first sync's bodies come after its cards).
   */
  async function catchUp(): Promise<void> {
    for (;;) {
      const rows = await db.articles.where('rev').above(indexedRev).limit(CATCH_UP_CHUNK).toArray();
      if (rows.length === 0) break;
      const contents = await db.article_contents.bulkGet(rows.map((row) => row.id));
      rows.forEach((row, i) => {
        const text = contents[i]?.text ?? '';
        index.set(row.id, fieldsOf(row, text), signatureOf(row, text));
        indexedRev = Math.max(indexedRev, row.rev);
      });
      if (rows.length < CATCH_UP_CHUNK) break;
    }
    for (;;) {
      const contents = await db.article_contents
        .where('rev')
        .above(indexedBodyRev)
        .limit(CATCH_UP_CHUNK)
        .toArray();
      if (contents.length === 0) return;
      const rows = await db.articles.bulkGet(contents.map((content) => content.id));
      contents.forEach((content, i) => {
        const row = rows[i];
        if (row) index.set(row.id, fieldsOf(row, content.text), signatureOf(row, content.text));
        indexedBodyRev = Math.max(indexedBodyRev, content.rev ?? 0);
      });
      if (contents.length < CATCH_UP_CHUNK) return;
    }
  }

  return {
    catchUp,
    /** Ids of the matching articles, best match first. */
    async search(query: string): Promise<string[]> {
      if (searchTerms(query).length === 0) return [];
      await catchUp();
      return index.search(query);
    },
    /** Forgets an article found deleted. */
    forget: (id: string) => index.remove(id),
  };
}

export type ArticleSearch = ReturnType<typeof createArticleSearch>;
