/**
 * Which list item each built card is shown in. A card keeps its item while it stays built; a card coming
 * into view takes the item of one that left, so a scroll updates the nodes of a screen of cards instead
 * of building new ones and leaving the old to the garbage collector (whose pauses, with a screen of
 * cards dropped every frame, were the long frames of a fast scroll).
 */
export class CardSlots {
  /** The slot each card built last time is in, by article id. */
  private slotOf = new Map<string, number>();

  /**
   * The slot of each card to build, by id. The same ids give the same slots, so a render done twice (or
   * one React throws away) changes nothing.
   */
  assign(ids: readonly string[]): ReadonlyMap<string, number> {
    const next = new Map<string, number>();
    const taken = new Set<number>();
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined) {
        next.set(id, slot);
        taken.add(slot);
      }
    }
    let candidate = 0;
    for (const id of ids) {
      if (next.has(id)) continue;
      while (taken.has(candidate)) candidate += 1;
      taken.add(candidate);
      next.set(id, candidate);
    }
    this.slotOf = next;
    return next;
  }
}
