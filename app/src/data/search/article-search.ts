// Offline article search: the server's full-text rules (every word must occur, the last one as a prefix,
// over title, description, author, url, body text and tag names) on an in-memory MiniSearch index that
// catches up with the database by each row's `rev`, so writes from any tab are found.
import MiniSearch from 'minisearch';
import { searchTerms } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { ArticleRow } from '../db/rows';

interface ArticleDoc {
  id: string;
  title: string;
  description: string;
  author: string;
  url: string;
  text: string;
  tags: string;
}

/** The server's bm25 column weights, so the best matches come first on both sides. */
const BOOST = { title: 10, description: 4, author: 3, url: 2, text: 1, tags: 5 };

/** The server's rule: the last word (of two letters or more) also matches as a prefix. */
export const lastTermIsPrefix = (term: string, index: number, terms: string[]) =>
  index === terms.length - 1 && term.length >= 2;

const CATCH_UP_CHUNK = 500;

export function createArticleSearch(db: LecternDb) {
  const index = new MiniSearch<ArticleDoc>({
    fields: ['title', 'description', 'author', 'url', 'text', 'tags'],
    storeFields: [],
    tokenize: searchTerms,
    processTerm: (term) => term,
    searchOptions: { combineWith: 'AND', prefix: lastTermIsPrefix, fuzzy: false, boost: BOOST },
  });
  let indexedRev = 0;

  function addToIndex(rows: readonly ArticleRow[], texts: readonly (string | undefined)[]) {
    rows.forEach((row, i) => {
      const doc: ArticleDoc = {
        id: row.id,
        title: row.title,
        description: row.description ?? '',
        author: row.author ?? '',
        url: row.url,
        text: texts[i] ?? '',
        tags: row.tags.join(' '),
      };
      if (index.has(row.id)) index.replace(doc);
      else index.add(doc);
      indexedRev = Math.max(indexedRev, row.rev);
    });
  }

  /** Indexes every article written since the last catch-up (all of them the first time). */
  async function catchUp(): Promise<void> {
    for (;;) {
      const rows = await db.articles.where('rev').above(indexedRev).limit(CATCH_UP_CHUNK).toArray();
      if (rows.length === 0) return;
      const contents = await db.article_contents.bulkGet(rows.map((row) => row.id));
      addToIndex(
        rows,
        contents.map((content) => content?.text),
      );
      if (rows.length < CATCH_UP_CHUNK) return;
    }
  }

  return {
    catchUp,
    /** Ids of the matching articles, best match first. */
    async search(query: string): Promise<string[]> {
      if (searchTerms(query).length === 0) return [];
      await catchUp();
      return index.search(query).map((result) => String(result.id));
    },
    /** Forgets an article found deleted. */
    forget(id: string) {
      if (index.has(id)) index.discard(id);
    },
  };
}

export type ArticleSearch = ReturnType<typeof createArticleSearch>;
