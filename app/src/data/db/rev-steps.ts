// Reads the rows written since a rev, a few at a time, in the order of the `rev` index: by rev, then by
// primary key (an article's id, a body's seq). One write gives all its rows one rev (a sync's page of up to
// 1,000 articles, a move of 250 staged cards, a bulk edit), so a step that stopped at a rev may have left
// rows of that same rev behind: the next step goes on after the last row's key within that rev before going
// past it. Asking for rows above the last rev alone would skip them for good.
import type { Table } from 'dexie';

interface RevRow {
  /** Optional in some tables' types; every row the rev index holds has one. */
  rev?: number;
}

/** A table's primary key: an article's id, a body's seq. */
type RowKey = string | number;

export interface RevPosition {
  /** Every row of a lower rev was read. */
  rev: number;
  /** Rows of `rev` were read up to this key (the index orders them by it); null: none of them yet. */
  afterKey: RowKey | null;
}

/**
 * The next `count` rows after `from` in the rev index, the position after them, and whether nothing was
 * left after them (`done`: go by it, not by how many rows came, as a row deleted meanwhile is not among
 * them). Rows of `from.rev` left are read by their keys first (keys only, then those rows), then rows of
 * higher revs.
 */
export async function rowsAfter<Row extends RevRow, Key extends RowKey>(
  table: Table<Row, Key>,
  from: RevPosition,
  count: number,
): Promise<{ rows: Row[]; next: RevPosition; done: boolean }> {
  const keyPath = table.schema.primKey.keyPath as string;
  const keyOf = (row: Row) => (row as Record<string, unknown>)[keyPath] as Key;
  let rows: Row[] = [];
  const { afterKey } = from;
  if (afterKey !== null) {
    const keys = await table.where('rev').equals(from.rev).primaryKeys();
    const left = keys.filter((key) => key > afterKey).slice(0, count);
    // A row written again since has a higher rev: it is read again there. One deleted is gone.
    rows = (await table.bulkGet(left)).filter((row): row is Row => row !== undefined);
    if (left.length === count)
      return { rows, next: { rev: from.rev, afterKey: left[left.length - 1]! }, done: false };
  }
  const asked = count - rows.length;
  const above = await table.where('rev').above(from.rev).limit(asked).toArray();
  rows = [...rows, ...above];
  const last = above[above.length - 1];
  if (!last) return { rows, next: { rev: from.rev, afterKey: null }, done: true };
  // Fewer than asked: nothing was left after them, so no rev is part-read (a rev is never given again).
  const done = above.length < asked;
  return { rows, next: { rev: last.rev ?? from.rev, afterKey: done ? null : keyOf(last) }, done };
}
