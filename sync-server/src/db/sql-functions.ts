// The few SQL functions whose name differs between the engines, for queries written once with drizzle's
// `sql` template: each renders the dialect's own spelling.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Queryable } from './database';
import type { DecodedValue } from './typed-select';

/** The later of a timestamp column and a value (ISO strings sort as time does). */
export function laterOf(db: Queryable, column: SQLWrapper, value: string): SQL<string> {
  return db.dialect === 'sqlite' ? sql`max(${column}, ${value})` : sql`greatest(${column}, ${value})`;
}

/**
 * JSON stored as text, read to go out as it is: never parsed nor serialized again. On SQLite as its UTF-8
 * bytes (a Buffer: not even decoded into a JavaScript string); on PostgreSQL as the string, since its bytea
 * comes hex-encoded over the wire (twice the bytes, then decoded here: 45 µs more a 26 KB article).
 * What is read is a StoredJson: `jsonBytes` makes it a Buffer where one is needed.
 */
export function storedJson(db: Queryable, text: SQLWrapper): DecodedValue<StoredJson> {
  return asStoredJson(db.dialect === 'sqlite' ? sql`CAST(${text} AS BLOB)` : sql`${text}`);
}

/** An expression made of storedJson or jsonStringText values (a CASE choosing one, say), read as they are. */
export function asStoredJson(value: SQL): DecodedValue<StoredJson> {
  return {
    sql: value,
    decode: (driverValue) => (Buffer.isBuffer(driverValue) ? driverValue : String(driverValue)),
  };
}

/** JSON read by storedJson or jsonStringText: bytes on SQLite, a string on PostgreSQL. */
export type StoredJson = Buffer | string;

/** A StoredJson as bytes, to splice into an answer made of Buffers. */
export const jsonBytes = (json: StoredJson): Buffer => (typeof json === 'string' ? Buffer.from(json) : json);

/** A text expression's length in bytes (UTF-8). */
export function byteLength(db: Queryable, text: SQLWrapper): SQL<number | null> {
  return db.dialect === 'sqlite' ? sql`length(CAST(${text} AS BLOB))` : sql`octet_length(${text})`;
}

/** A text expression as a JSON string literal (null stays NULL), read as storedJson reads. */
export function jsonStringText(db: Queryable, text: SQLWrapper): DecodedValue<StoredJson> {
  return asStoredJson(
    db.dialect === 'sqlite' ? sql`CAST(json_quote(${text}) AS BLOB)` : sql`to_json(${text})::text`,
  );
}

/**
 * `column IN (ids)` with the ids as one JSON parameter: one prepared statement whatever their number, and
 * no limit on bound parameters.
 */
export function inJsonList(db: Queryable, column: SQLWrapper, ids: readonly string[]): SQL {
  const list = JSON.stringify(ids);
  return db.dialect === 'sqlite'
    ? sql`${column} IN (SELECT value FROM json_each(${list}))`
    : sql`${column} IN (SELECT json_array_elements_text(${list}::json))`;
}

/**
 * `column = value`, kept from choosing the query's index on SQLite (its unary `+`): for a query whose other
 * condition, a short list of ids, is the one to search by. SQLite otherwise walks the caller's whole library
 * by the owner's index and looks each row up in the list (120 ms a page of 1,000 at 50,000 articles).
 */
export function equalsNotIndexed(db: Queryable, column: SQLWrapper, value: string): SQL {
  return db.dialect === 'sqlite' ? sql`+${column} = ${value}` : sql`${column} = ${value}`;
}

/**
 * The ids as a table `alias(value, n)`, one row per id in the order given (n from 1): SQLite's json_each
 * walks the array in order, PostgreSQL numbers it WITH ORDINALITY.
 */
export function jsonListTable(db: Queryable, ids: readonly string[], alias: string): SQL {
  const list = JSON.stringify(ids);
  return db.dialect === 'sqlite'
    ? sql`(SELECT value, key + 1 AS n FROM json_each(${list})) ${sql.raw(alias)}`
    : sql`json_array_elements_text(${list}::json) WITH ORDINALITY AS ${sql.raw(alias)}(value, n)`;
}

/** The names joined by `separator`, or NULL for none: SQLite's group_concat, PostgreSQL's string_agg. */
export function joinedText(db: Queryable, text: SQLWrapper, separator: string): SQL<string | null> {
  return db.dialect === 'sqlite'
    ? sql`group_concat(${text}, ${separator})`
    : sql`string_agg(${text}, ${separator})`;
}

/**
 * Inside a transaction: waits until no other transaction of this user holds `scope`, then holds it until
 * this one ends. SQLite runs one transaction at a time, so there it is already so; PostgreSQL's transactions
 * run side by side, and a check-then-insert (is this address saved yet?) would let two of them both insert.
 */
export async function lockForUser(tx: Queryable, scope: string, userId: string): Promise<void> {
  if (tx.dialect === 'postgres')
    await tx.run(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${scope}:${userId}`}, 0))`);
}
