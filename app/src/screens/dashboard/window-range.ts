/** Which rows of a grid to build, and how much room stands for the rows left out above and below. */
export interface WindowRange {
  /** First row built. */
  firstRow: number;
  /** One past the last row built. */
  endRow: number;
  /** Height of the rows before `firstRow`, each with the gap after it. */
  above: number;
  /** Height of the rows from `endRow` on, each with the gap before it. */
  below: number;
}

export interface WindowInput {
  rows: number;
  /** What a row stands for: the rows are taken to be all of this height (cards keep theirs). */
  rowHeight: number;
  gap: number;
  /** The span, in the grid's own coordinates (0 is its top), to fill with built rows. */
  from: number;
  to: number;
}

/**
 * The rows that meet [from, to], row n spanning [n × (height + gap), n × (height + gap) + height]: a
 * division, whatever the number of rows. A span beyond the grid keeps at least its last row, so it never
 * goes empty.
 */
export function windowRange({ rows, rowHeight, gap, from, to }: WindowInput): WindowRange {
  if (rows <= 0) return { firstRow: 0, endRow: 0, above: 0, below: 0 };
  const pitch = Math.max(1, rowHeight + gap);
  const firstRow = Math.min(rows - 1, Math.max(0, Math.ceil((from - rowHeight) / pitch)));
  const endRow = Math.min(rows, Math.max(firstRow + 1, Math.floor(to / pitch) + 1));
  return { firstRow, endRow, above: firstRow * pitch, below: (rows - endRow) * pitch };
}
