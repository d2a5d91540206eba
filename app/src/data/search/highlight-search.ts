// Offline highlight search, as the server's: the highlighted text and its article's title.
import { searchTerms } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { HighlightRow } from '../db/rows';
import { TermIndex } from './term-index';

/** The server's bm25 column weights: the text counts three times the title. */
const WEIGHTS = { text: 3, title: 1 };

export function createHighlightSearch(db: LecternDb) {
  const index = new TermIndex();
  let highlightRev = 0;
  let articleRev = 0;

  async function catchUp(): Promise<void> {
    const changedArticles = await db.articles.where('rev').above(articleRev).toArray();
    const changed = new Map<string, HighlightRow>();
    for (const row of await db.highlights.where('rev').above(highlightRev).toArray())
      changed.set(row.id, row);
    if (articleRev > 0 && changedArticles.length > 0) {
      // A retitled article changes what its highlights match.
      const ids = changedArticles.map((article) => article.id);
      for (const row of await db.highlights.where('article_id').anyOf(ids).toArray())
        changed.set(row.id, row);
    }
    const titles = new Map(changedArticles.map((article) => [article.id, article.title]));
    const missing = [
      ...new Set([...changed.values()].map((h) => h.article_id).filter((id) => !titles.has(id))),
    ];
    for (const article of await db.articles.bulkGet(missing))
      if (article) titles.set(article.id, article.title);
    for (const row of changed.values()) {
      const title = titles.get(row.article_id) ?? '';
      const fields = [
        { text: row.highlighted_text, weight: WEIGHTS.text },
        { text: title, weight: WEIGHTS.title },
      ];
      index.set(row.id, fields, `${title}\u0000${row.highlighted_text}`);
      highlightRev = Math.max(highlightRev, row.rev);
    }
    for (const article of changedArticles) articleRev = Math.max(articleRev, article.rev);
  }

  return {
    async search(query: string): Promise<string[]> {
      if (searchTerms(query).length === 0) return [];
      await catchUp();
      return index.search(query);
    },
    forget: (id: string) => index.remove(id),
  };
}

export type HighlightSearch = ReturnType<typeof createHighlightSearch>;
