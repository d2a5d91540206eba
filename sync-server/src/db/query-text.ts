// A query's SQL text and parameters in its engine's dialect. A query run with placeholder values is
// rendered once, on its first run, and that text reused while the query object lives (see
// PlaceholderValues in database.ts); any other query is rendered at each run, as drizzle does.
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import type { PlaceholderValues } from './database';

interface Dialect {
  sqlToQuery(query: SQL): { sql: string; params: unknown[] };
}

export function queryTexts(dialect: Dialect) {
  const rendered = new WeakMap<SQL, { sql: string; params: unknown[] }>();
  return (query: SQL, values?: PlaceholderValues): { text: string; params: unknown[] } => {
    if (!values) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return { text, params };
    }
    let once = rendered.get(query);
    if (!once) {
      once = dialect.sqlToQuery(query);
      rendered.set(query, once);
    }
    return { text: once.sql, params: fillPlaceholders(once.params, values) };
  };
}
