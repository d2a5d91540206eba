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
  /** Height of a row once it has been on screen; undefined for one never measured. */
  heightOf(row: number): number | undefined;
  /** Stands for the rows never measured. */
  estimate: number;
  gap: number;
  /** The span, in the grid's own coordinates (0 is its top), to fill with built rows. */
  from: number;
  to: number;
}

/**
 * The rows that meet [from, to], walking the rows' heights from the top: measured ones as they were,
 * the others by the estimate. A span beyond the grid keeps at least its last row, so it never goes empty.
 */
export function windowRange({ rows, heightOf, estimate, gap, from, to }: WindowInput): WindowRange {
  if (rows <= 0) return { firstRow: 0, endRow: 0, above: 0, below: 0 };
  let y = 0;
  let firstRow = -1;
  let endRow = rows;
  let above = 0;
  let below = 0;
  for (let row = 0; row < rows; row += 1) {
    const height = heightOf(row) ?? estimate;
    const bottom = y + height;
    if (firstRow < 0) {
      if (bottom >= from || row === rows - 1) {
        firstRow = row;
      } else {
        above += height + gap;
      }
    }
    if (firstRow >= 0 && row > firstRow && y > to) {
      if (endRow === rows) endRow = row;
      below += gap + height;
    }
    y = bottom + gap;
  }
  return { firstRow, endRow, above, below };
}
