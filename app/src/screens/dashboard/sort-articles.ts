// The sort select of spec section 2. The device's list answers in the order asked; search results are
// sorted here (sortArticles, from the data layer so both sides order alike).
import type { ArticleOrder } from '../../data';

export { sortArticles, type ArticleOrder } from '../../data';

export const SORT_OPTIONS: readonly { value: ArticleOrder; label: string }[] = [
  { value: 'newest', label: 'Newest First' },
  { value: 'oldest', label: 'Oldest First' },
  { value: 'title', label: 'A-Z' },
];

export function isArticleOrder(value: string): value is ArticleOrder {
  return SORT_OPTIONS.some((option) => option.value === value);
}
