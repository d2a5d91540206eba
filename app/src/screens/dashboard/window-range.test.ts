import { describe, expect, it } from 'vitest';
import { windowRange } from './window-range';

describe('windowRange', () => {
  it('builds only the rows that meet the span, and keeps the room of the others', () => {
    // Rows of 100 with gaps of 10: row n spans [110n, 110n + 100].
    const range = windowRange({ rows: 100, rowHeight: 100, gap: 10, from: 1000, to: 1500 });
    expect(range).toEqual({ firstRow: 9, endRow: 14, above: 990, below: 86 * 110 });
  });

  it('counts a row that only touches the span, and none past it', () => {
    // Row 3 spans [330, 430]: the span [430, 439] touches it; row 4 starts at 440.
    expect(windowRange({ rows: 10, rowHeight: 100, gap: 10, from: 430, to: 439 })).toEqual({
      firstRow: 3,
      endRow: 4,
      above: 330,
      below: 6 * 110,
    });
  });

  it('answers at once for a list of any length', () => {
    const rows = 50_000_000;
    const started = performance.now();
    const range = windowRange({ rows, rowHeight: 360, gap: 16, from: 376 * 1_000_000, to: 376 * 1_000_003 });
    expect(performance.now() - started).toBeLessThan(5);
    expect(range.firstRow).toBe(1_000_000);
    expect(range.endRow).toBe(1_000_004);
    expect(range.above + (range.endRow - range.firstRow) * 376 + range.below).toBe(rows * 376);
  });

  it('builds everything from the top when the span starts above the grid', () => {
    expect(windowRange({ rows: 3, rowHeight: 100, gap: 0, from: -500, to: 5000 })).toEqual({
      firstRow: 0,
      endRow: 3,
      above: 0,
      below: 0,
    });
  });

  it('keeps the last row when the span is past the end of the grid', () => {
    expect(windowRange({ rows: 3, rowHeight: 100, gap: 0, from: 9000, to: 9900 })).toEqual({
      firstRow: 2,
      endRow: 3,
      above: 200,
      below: 0,
    });
  });

  it('builds nothing for no rows', () => {
    expect(windowRange({ rows: 0, rowHeight: 1, gap: 0, from: 0, to: 10 })).toEqual({
      firstRow: 0,
      endRow: 0,
      above: 0,
      below: 0,
    });
  });
});
