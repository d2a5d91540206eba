// Pieces of Dexie's DBCore the middlewares (article-counts.ts, staged-cards.ts) share.
import type { DBCoreKeyRange, DBCoreRangeType, DBCoreTransaction } from 'dexie';

// DBCoreRangeType's values: a const enum, which the bundler can't read from Dexie's types.
export const RANGE_EQUAL = 1 as DBCoreRangeType;
export const RANGE_BETWEEN = 2 as DBCoreRangeType;
/** Every key: the range of a table's clear(). */
export const RANGE_ANY = 3 as DBCoreRangeType;

/** Every key of an index, as Dexie's own AnyRange says it. */
export const ANY_KEY: DBCoreKeyRange = {
  type: RANGE_ANY,
  lower: -Infinity,
  lowerOpen: false,
  upper: [[]],
  upperOpen: false,
};

/** Exactly `key`. */
export const keyEquals = (key: unknown): DBCoreKeyRange => ({ type: RANGE_EQUAL, lower: key, upper: key });

/** Whether `trans` holds the store `name` (never during a schema upgrade, which middlewares leave alone). */
export function holdsStore(trans: DBCoreTransaction | undefined, name: string): boolean {
  const idb = trans as unknown as IDBTransaction | undefined;
  return idb !== undefined && idb.mode !== 'versionchange' && idb.objectStoreNames.contains(name);
}
