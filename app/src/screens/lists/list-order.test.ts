import { describe, expect, it } from 'vitest';
import { movedAnnouncement, moveItem } from './list-order';

describe('moveItem', () => {
  const ids = ['a', 'b', 'c', 'd'];

  it('moves an item up, down and across the list', () => {
    expect(moveItem(ids, 2, 1)).toEqual(['a', 'c', 'b', 'd']);
    expect(moveItem(ids, 0, 1)).toEqual(['b', 'a', 'c', 'd']);
    expect(moveItem(ids, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(ids, 0, 3)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('keeps the same array when nothing moves, at either end', () => {
    expect(moveItem(ids, 0, -1)).toBe(ids);
    expect(moveItem(ids, 3, 4)).toBe(ids);
    expect(moveItem(ids, 2, 2)).toBe(ids);
    expect(moveItem(ids, 7, 0)).toBe(ids);
  });

  it('never loses or duplicates an item', () => {
    for (let from = 0; from < ids.length; from += 1) {
      for (let to = 0; to < ids.length; to += 1) {
        expect([...moveItem(ids, from, to)].sort()).toEqual(ids);
      }
    }
  });
});

describe('movedAnnouncement', () => {
  it('says where the article went', () => {
    expect(movedAnnouncement('Saturn', 2, 4)).toBe('Saturn moved to position 2 of 4');
  });
});
