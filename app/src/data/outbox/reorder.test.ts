import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeOrder } from './reorder';

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
        expect([...merged].sort()).toEqual([...current].sort());
      }),
    );
  });
});
