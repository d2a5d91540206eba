// A write run once per row of a long run (an import's rows): its SQL is built once per engine with
// sql.placeholder()s for what varies, and each call gives only the values, so neither the query nor its SQL
// text is built again (drizzle's building of an article's insert cost as much as SQLite's writing of it).
import type { SQL } from 'drizzle-orm';
import type { PlaceholderValues, Queryable } from './database';
import { perEngine } from './per-engine';

/** `build` makes the write once per engine; the answer runs it with a call's values (rows changed). */
export function preparedWrite(
  build: (db: Queryable) => SQL,
): (db: Queryable, values: PlaceholderValues) => Promise<number> {
  const queryOf = perEngine(build);
  return async (db, values) => await db.run(queryOf(db), values);
}
