// A list reorder made on one device while another device added or removed articles of the same list.

/**
 * The wanted order applied to the list as it is now: articles gone since are dropped, and articles added
 * since keep their current index. Equal to `wanted` when both name the same articles.
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
