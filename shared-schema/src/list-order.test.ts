import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  comparePlaces,
  isCompleteOrder,
  mergeOrder,
  movedPlaces,
  orderWithArticle,
  type ListPlace,
} from './list-order';

const place = (article_id: string, position: number, added_at = '2026-01-01T00:00:00.000Z'): ListPlace => ({
  article_id,
  position,
  added_at,
});

describe('comparePlaces', () => {
  it('orders by position, then by when the article was added', () => {
    const places = [
      place('c', 1, '2026-01-01T10:00:00.000Z'),
      place('b', 1, '2026-01-01T09:00:00.000Z'),
      place('a', 0, '2026-01-02T00:00:00.000Z'),
    ];
    expect([...places].sort(comparePlaces).map((p) => p.article_id)).toEqual(['a', 'b', 'c']);
  });
});

describe('orderWithArticle', () => {
  it('puts a new article last when no position is given', () => {
    expect(orderWithArticle(['a', 'b'], 'x')).toEqual(['a', 'b', 'x']);
  });

  it('puts it at the given position, 0 being first', () => {
    expect(orderWithArticle(['a', 'b', 'c'], 'x', 0)).toEqual(['x', 'a', 'b', 'c']);
    expect(orderWithArticle(['a', 'b', 'c'], 'x', 2)).toEqual(['a', 'b', 'x', 'c']);
  });

  it('puts it last when the position is past the end', () => {
    expect(orderWithArticle(['a'], 'x', 7)).toEqual(['a', 'x']);
    expect(orderWithArticle([], 'x', 3)).toEqual(['x']);
  });

  it('changes nothing for an article already in the list', () => {
    expect(orderWithArticle(['a', 'b'], 'b', 0)).toBeUndefined();
  });

  it('leaves the order it was given alone', () => {
    const order = ['a', 'b'];
    orderWithArticle(order, 'x', 0);
    expect(order).toEqual(['a', 'b']);
  });
});

describe('movedPlaces', () => {
  it('answers only the places whose position changes, with their new position', () => {
    const places = [place('a', 0), place('b', 1), place('c', 2)];
    expect(movedPlaces(places, ['a', 'c', 'b'])).toEqual([place('c', 1), place('b', 2)]);
  });

  it('closes the gap a removed article left', () => {
    const places = [place('a', 0), place('c', 2), place('d', 3)];
    expect(movedPlaces(places, ['a', 'c', 'd'])).toEqual([place('c', 1), place('d', 2)]);
  });

  it('skips articles the list does not hold and keeps the other fields of a place', () => {
    const places = [{ ...place('a', 5), key: 'l:a' }];
    expect(movedPlaces(places, ['ghost', 'a'])).toEqual([{ ...place('a', 1), key: 'l:a' }]);
  });

  it('answers nothing when every place is where the order puts it', () => {
    expect(movedPlaces([place('a', 0), place('b', 1)], ['a', 'b'])).toEqual([]);
  });
});

describe('isCompleteOrder', () => {
  it('accepts every article of the list exactly once, in any order', () => {
    expect(isCompleteOrder(['b', 'a'], ['a', 'b'])).toBe(true);
    expect(isCompleteOrder([], [])).toBe(true);
  });

  it('refuses a missing, an extra or a repeated article', () => {
    expect(isCompleteOrder(['a'], ['a', 'b'])).toBe(false);
    expect(isCompleteOrder(['a', 'b', 'c'], ['a', 'b'])).toBe(false);
    expect(isCompleteOrder(['a', 'a'], ['a', 'b'])).toBe(false);
    expect(isCompleteOrder(['a', 'c'], ['a', 'b'])).toBe(false);
  });
});

describe('mergeOrder', () => {
  it('is the wanted order when both name the same articles', () => {
    expect(mergeOrder(['c', 'a', 'b'], ['a', 'b', 'c'])).toEqual(['c', 'a', 'b']);
  });

  it('drops articles removed since and keeps articles added since at their index', () => {
    expect(mergeOrder(['c', 'b', 'a'], ['a', 'b', 'd'])).toEqual(['b', 'a', 'd']);
    expect(mergeOrder(['b', 'a'], ['x', 'a', 'b'])).toEqual(['x', 'b', 'a']);
  });

  it('always answers each current article exactly once', () => {
    const ids = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'));
    fc.assert(
      fc.property(ids, ids, (wanted, current) => {
        const merged = mergeOrder(wanted, current);
        expect(isCompleteOrder(merged, current)).toBe(true);
      }),
    );
  });
});
