// The sort select of spec section 2, applied on the device to whatever the list or search answered.
export type ArticleOrder = 'newest' | 'oldest' | 'title';

export const SORT_OPTIONS: readonly { value: ArticleOrder; label: string }[] = [
  { value: 'newest', label: 'Newest First' },
  { value: 'oldest', label: 'Oldest First' },
  { value: 'title', label: 'A-Z' },
];

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

export function isArticleOrder(value: string): value is ArticleOrder {
  return SORT_OPTIONS.some((option) => option.value === value);
}

/** A sorted copy; titles compare as a reader would (case and accents aside, 2 before 10). */
export function sortArticles<T extends Sortable>(articles: readonly T[], order: ArticleOrder): T[] {
  const sorted = [...articles];
  if (order === 'newest') sorted.sort((a, b) => byCreated(b, a));
  else if (order === 'oldest') sorted.sort(byCreated);
  else sorted.sort((a, b) => titleCollator.compare(a.title.trim(), b.title.trim()) || byCreated(b, a));
  return sorted;
}
