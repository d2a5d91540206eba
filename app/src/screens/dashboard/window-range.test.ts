import { describe, expect, it } from 'vitest';
import { windowRange } from './window-range';

const sized = (heights: Record<number, number>) => (row: number) => heights[row];

describe('windowRange', () => {
  it('builds only the rows that meet the span, and keeps the room of the others', () => {
    // Rows of 100 with gaps of 10: row n spans [110n, 110n + 100].
    const range = windowRange({
      rows: 100,
      heightOf: () => 100,
      estimate: 100,
      gap: 10,
      from: 1000,
      to: 1500,
    });
    expect(range).toEqual({ firstRow: 9, endRow: 14, above: 990, below: 86 * 110 });
  });

  it('counts unmeasured rows at the estimate and measured ones at their height', () => {
    const range = windowRange({
      rows: 10,
      heightOf: sized({ 0: 300, 1: 50 }),
      estimate: 100,
      gap: 0,
      from: 400,
      to: 500,
    });
    // 0..300, 300..350, 350..450, 450..550, 550..650
    expect(range).toEqual({ firstRow: 2, endRow: 4, above: 350, below: 600 });
  });

  it('builds everything from the top when the span starts above the grid', () => {
    expect(
      windowRange({ rows: 3, heightOf: () => 100, estimate: 100, gap: 0, from: -500, to: 5000 }),
    ).toEqual({
      firstRow: 0,
      endRow: 3,
      above: 0,
      below: 0,
    });
  });

  it('keeps the last row when the span is past the end of the grid', () => {
    expect(
      windowRange({ rows: 3, heightOf: () => 100, estimate: 100, gap: 0, from: 9000, to: 9900 }),
    ).toEqual({
      firstRow: 2,
      endRow: 3,
      above: 200,
      below: 0,
    });
  });

  it('builds nothing for no rows', () => {
    expect(windowRange({ rows: 0, heightOf: () => 1, estimate: 1, gap: 0, from: 0, to: 10 })).toEqual({
      firstRow: 0,
      endRow: 0,
      above: 0,
      below: 0,
    });
  });
});
