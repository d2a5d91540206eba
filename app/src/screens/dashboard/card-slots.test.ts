import { describe, expect, it } from 'vitest';
import { CardSlots } from './card-slots';

/** The slots of `ids`, in their order. */
function slotsOf(slots: CardSlots, ids: readonly string[]): number[] {
  const assigned = slots.assign(ids);
  return ids.map((id) => assigned.get(id)!);
}

const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `a${from + i}`);

describe('CardSlots', () => {
  it('gives the cards of a first build the slots 0 to n − 1', () => {
    expect(slotsOf(new CardSlots(), ids(0, 4))).toEqual([0, 1, 2, 3]);
  });

  it('keeps a card in its slot while it stays built, and gives a card coming into view the slot of one that left', () => {
    const slots = new CardSlots();
    slots.assign(ids(0, 6));
    // Scrolled a row of two down: a0 and a1 left, a6 and a7 came.
    expect(slotsOf(slots, ids(2, 8))).toEqual([2, 3, 4, 5, 0, 1]);
    // Another row: a2 and a3 left their slots 2 and 3.
    expect(slotsOf(slots, ids(4, 10))).toEqual([4, 5, 0, 1, 2, 3]);
  });

  it('never gives two cards the same slot, and uses no more slots than the most cards built at once', () => {
    const slots = new CardSlots();
    let max = 0;
    let most = 0;
    for (const [from, to] of [
      [0, 6],
      [3, 12],
      [10, 14],
      [0, 20],
      [18, 19],
      [5, 15],
    ] as const) {
      const assigned = slotsOf(slots, ids(from, to));
      expect(new Set(assigned).size).toBe(assigned.length);
      most = Math.max(most, to - from);
      expect(Math.max(...assigned)).toBeLessThan(most);
      max = Math.max(max, ...assigned);
    }
    expect(max).toBe(19);
  });

  it('keeps the slots of the cards left when one is deleted from the middle, its slot going to the card coming in', () => {
    const slots = new CardSlots();
    slots.assign(['a', 'b', 'c', 'd']);
    expect(slotsOf(slots, ['a', 'c', 'd', 'e'])).toEqual([0, 2, 3, 1]);
  });

  it('answers the same slots when asked twice with the same cards (a render React does twice)', () => {
    const slots = new CardSlots();
    slots.assign(ids(0, 6));
    const once = slotsOf(slots, ids(3, 9));
    expect(slotsOf(slots, ids(3, 9))).toEqual(once);
  });
});
