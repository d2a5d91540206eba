// The few SQL functions whose name differs between the engines, for queries written once with drizzle's
// `sql` template: each renders the dialect's own spelling.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Queryable } from './database';

/** The later of a timestamp column and a value (ISO strings sort as time does). */
export function laterOf(db: Queryable, column: SQLWrapper, value: string): SQL<string> {
  return db.dialect === 'sqlite' ? sql`max(${column}, ${value})` : sql`greatest(${column}, ${value})`;
}
