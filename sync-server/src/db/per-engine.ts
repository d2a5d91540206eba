// What is built once per engine (a query with placeholders, a selection): both engines' schemas may be in
// use in one process (the tests, the bench), so it is kept by the schema the Queryable runs on.
import type { Queryable, Tables } from './database';

/** `build`, run once for each engine's schema it is asked for, and its answer kept. */
export function perEngine<T>(build: (db: Queryable) => T): (db: Queryable) => T {
  const built = new WeakMap<Tables, T>();
  return (db) => {
    let value = built.get(db.tables);
    if (value === undefined) {
      value = build(db);
      built.set(db.tables, value);
    }
    return value;
  };
}
