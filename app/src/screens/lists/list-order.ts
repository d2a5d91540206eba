// Moving one article within a list's order: what the reorder buttons, the arrow keys and a drop do.

/** The ids with the one at `from` moved to `to` (both clamped to the list); the same array if nothing moves. */
export function moveItem<T>(items: readonly T[], from: number, to: number): readonly T[] {
  const target = Math.min(items.length - 1, Math.max(0, to));
  if (from < 0 || from >= items.length || from === target) return items;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved as T);
  return next;
}

/** 'Observing Saturn moved to position 2 of 4', for the screen reader's live region. */
export function movedAnnouncement(title: string, position: number, total: number): string {
  return `${title} moved to position ${position} of ${total}`;
}
