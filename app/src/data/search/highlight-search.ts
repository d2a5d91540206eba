// Offline highlight search, as the server's: the highlighted text and its article's title.
import MiniSearch from 'minisearch';
import { searchTerms } from '@lectern/shared-schema';
import type { LecternDb } from '../db/lectern-db';
import type { HighlightRow } from '../db/rows';
import { lastTermIsPrefix } from './article-search';

interface HighlightDoc {
  id: string;
  text: string;
  title: string;
}

export function createHighlightSearch(db: LecternDb) {
  const index = new MiniSearch<HighlightDoc>({
    fields: ['text', 'title'],
    storeFields: [],
    tokenize: searchTerms,
    processTerm: (term) => term,
    searchOptions: { combineWith: 'AND', prefix: lastTermIsPrefix, fuzzy: false },
  });
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
    if (changed.size === 0) {
      for (const article of changedArticles) articleRev = Math.max(articleRev, article.rev);
      return;
    }
    const titles = new Map(changedArticles.map((article) => [article.id, article.title]));
    const missing = [...changed.values()].map((h) => h.article_id).filter((id) => !titles.has(id));
    const others = await db.articles.bulkGet([...new Set(missing)]);
    for (const article of others) if (article) titles.set(article.id, article.title);
    for (const row of changed.values()) {
      const doc = { id: row.id, text: row.highlighted_text, title: titles.get(row.article_id) ?? '' };
      if (index.has(row.id)) index.replace(doc);
      else index.add(doc);
      highlightRev = Math.max(highlightRev, row.rev);
    }
    for (const article of changedArticles) articleRev = Math.max(articleRev, article.rev);
  }

  return {
    async search(query: string): Promise<string[]> {
      if (searchTerms(query).length === 0) return [];
      await catchUp();
      return index.search(query).map((result) => String(result.id));
    },
    forget(id: string) {
      if (index.has(id)) index.discard(id);
    },
  };
}

export type HighlightSearch = ReturnType<typeof createHighlightSearch>;
