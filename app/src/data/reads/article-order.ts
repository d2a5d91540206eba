// The orders of the dashboard's sort select (spec section 2), shared by the device's list, which reads
// each order from an index (db/list-keys.ts), and by the screen, which sorts search results: both compare
// titles by the same key, so a search and the list order alike.
export type ArticleOrder = 'newest' | 'oldest' | 'title';

interface Sortable {
  id: string;
  title: string;
  created_at: string;
}

/** Characters of a title kept in its key: enough to order any two real titles, small for the index. */
const TITLE_KEY_LENGTH = 80;
/** Digits a number is padded to, so that 2 comes before 10. */
const NUMBER_WIDTH = 10;

/**
 * A title as A-Z compares it, as a string ordered by its code units (what an index orders by): case and
 * accents aside, spaces collapsed, numbers by value (padded to the same width).
 */
export function titleKey(title: string): string {
  return (
    title
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .trim()
      .replace(/\s+/g, ' ')
      .replace(/\d+/g, (digits) => {
        const value = digits.replace(/^0+(?=\d)/, '');
        return value.length >= NUMBER_WIDTH ? value : value.padStart(NUMBER_WIDTH, '0');
      })
      // The index keys' separator and end (db/list-keys.ts) never appear in a key.
      .replaceAll('\u0000', '')
      .replaceAll('\uffff', '')
      .slice(0, TITLE_KEY_LENGTH)
  );
}

function byCreated(a: Sortable, b: Sortable): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * A-Z: titles by their key (case and accents aside, 2 before 10), the newest first on a tie, then by id,
 * as the title index lists them.
 */
export function compareTitles(a: Sortable, b: Sortable): number {
  const ka = titleKey(a.title);
  const kb = titleKey(b.title);
  if (ka !== kb) return ka < kb ? -1 : 1;
  if (a.created_at !== b.created_at) return a.created_at > b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A sorted copy. */
export function sortArticles<T extends Sortable>(articles: readonly T[], order: ArticleOrder): T[] {
  const sorted = [...articles];
  if (order === 'newest') sorted.sort((a, b) => byCreated(b, a));
  else if (order === 'oldest') sorted.sort(byCreated);
  else {
    // Each key computed once, not at each comparison.
    const keys = new Map(sorted.map((article) => [article, titleKey(article.title)]));
    sorted.sort((a, b) => {
      const ka = keys.get(a)!;
      const kb = keys.get(b)!;
      if (ka !== kb) return ka < kb ? -1 : 1;
      if (a.created_at !== b.created_at) return a.created_at > b.created_at ? -1 : 1;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
  }
  return sorted;
}
