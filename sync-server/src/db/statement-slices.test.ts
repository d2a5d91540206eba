// Rows go to one statement a slice, in order, each slice within the bound values a statement may carry.
import { describe, expect, it } from 'vitest';
import { statementSlices } from './statement-slices';

describe('statementSlices', () => {
  it('keeps every item once, in order, in slices that bind at most 2,000 values', () => {
    const items = Array.from({ length: 1_001 }, (_, i) => i);
    const slices = [...statementSlices(items, 6)];
    expect(slices.map((slice) => slice.length)).toEqual([333, 333, 333, 2]);
    expect(slices.flat()).toEqual(items);
    expect([...statementSlices(items, 1)]).toHaveLength(1);
  });

  it('answers no slice for no items, and an item a slice when one item binds more than the budget', () => {
    expect([...statementSlices([], 3)]).toEqual([]);
    expect([...statementSlices(['a', 'b'], 5_000)]).toEqual([['a'], ['b']]);
  });
});
