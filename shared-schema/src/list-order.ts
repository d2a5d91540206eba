// The order of a reading list's articles, decided alike on the device (Dexie) and the server (SQLite):
// where an added article goes, which places a new order moves, and how a reorder made elsewhere lands.

/** One article's place in a list, as both sides store it. */
export interface ListPlace {
  article_id: string;
  position: number;
  added_at: string;
}

/** The list's order: by position, then by when the article was added (SQL's `ORDER BY position, added_at`). */
export function comparePlaces(a: ListPlace, b: ListPlace): number {
  if (a.position !== b.position) return a.position - b.position;
  return a.added_at < b.added_at ? -1 : a.added_at > b.added_at ? 1 : 0;
}

/**
 * The order after adding an article: at `position` (0 is first), or last when it is missing or past the
 * end. Undefined when the article is in the list already (adding it again changes nothing).
 */
export function orderWithArticle(
  order: readonly string[],
  articleId: string,
  position?: number,
): string[] | undefined {
  if (order.includes(articleId)) return undefined;
  const next = [...order];
  next.splice(Math.min(position ?? order.length, order.length), 0, articleId);
  return next;
}

/**
 * The places whose position changes when the list takes `order` (positions 0..n-1 in that order). Articles
 * the order names but the list doesn't hold are skipped.
 */
export function movedPlaces<Place extends ListPlace>(
  places: readonly Place[],
  order: readonly string[],
): Place[] {
  const byArticle = new Map(places.map((place) => [place.article_id, place]));
  return order.flatMap((articleId, position) => {
    const place = byArticle.get(articleId);
    return place && place.position !== position ? [{ ...place, position }] : [];
  });
}

/** PUT /lists/{id}/reorder's rule: the new order names every article of the list exactly once. */
export function isCompleteOrder(wanted: readonly string[], current: readonly string[]): boolean {
  const named = new Set(wanted);
  return (
    named.size === wanted.length && named.size === current.length && current.every((id) => named.has(id))
  );
}

/**
 * A reorder made on one device while another device added or removed articles of the same list: the
 * wanted order applied to the list as it is now. Articles gone since are dropped, and articles added since
 * keep their current index. Equal to `wanted` when both name the same articles.
 */
export function mergeOrder(wanted: readonly string[], current: readonly string[]): string[] {
  const present = new Set(current);
  const merged = [...new Set(wanted)].filter((id) => present.has(id));
  const placed = new Set(merged);
  current.forEach((id, index) => {
    if (placed.has(id)) return;
    merged.splice(Math.min(index, merged.length), 0, id);
    placed.add(id);
  });
  return merged;
}
