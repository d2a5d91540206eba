// The orders of the dashboard's sort select (spec section 2), shared by the device's cached list, which
// keeps the library in each order once per change, and by the screen, which sorts search results.
export type ArticleOrder = 'newest' | 'oldest' | 'title';

interface Sortable {
  id: string;
  title: string;
  created_at: string;
}

const titleCollator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

function byCreated(a: Sortable, b: Sortable): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Titles as a reader compares them (case and accents aside, 2 before 10), the newest first on a tie. */
export function compareTitles(a: Sortable, b: Sortable): number {
  return titleCollator.compare(a.title.trim(), b.title.trim()) || byCreated(b, a);
}

/** A sorted copy. */
export function sortArticles<T extends Sortable>(articles: readonly T[], order: ArticleOrder): T[] {
  const sorted = [...articles];
  if (order === 'newest') sorted.sort((a, b) => byCreated(b, a));
  else if (order === 'oldest') sorted.sort(byCreated);
  else sorted.sort(compareTitles);
  return sorted;
}
