// Reads written with drizzle's `sql` template, typed and decoded by the schema: the services' one way to
// read rows the query builder can't say (engine-tuned joins, INDEXED BY, full-text search, JSON built by
// the database). The caller names what each answered value is, a schema column or a DecodedValue (asColumn,
// asNumber, asBoolean, asText, asParsed): the row's type follows from those (the schema's $inferSelect
// types), and each value is decoded as the builder decodes it (a SQLite 0/1 becomes a boolean, a
// PostgreSQL bigint a number). No row type is written by hand; the layer's three assertions are marked.
import { Column, is, sql, type GetColumnData, type SQL } from 'drizzle-orm';
import type { PlaceholderValues, Queryable } from './database';
import { perEngine } from './per-engine';

/** A value a read answers that is not a schema column: its SQL, and how a driver's value becomes its type. */
export interface DecodedValue<T> {
  readonly sql: SQL;
  readonly decode: (driverValue: unknown) => T;
}

/** What a read answers, by name: schema columns (of a table or an alias of one) or decoded values. */
export type Selection = Record<string, Column | DecodedValue<unknown>>;

/** The row a Selection reads: a column's $inferSelect type (null when it may be NULL), a value's decoded type. */
export type RowOf<S extends Selection> = {
  [Name in keyof S]: S[Name] extends Column
    ? GetColumnData<S[Name]>
    : S[Name] extends DecodedValue<infer T>
      ? T
      : never;
};

/**
 * `value` (a subquery or expression answering one of the column's values) read as `column` is: typed by
 * the column (null included when it may be NULL) and decoded by it.
 */
export function asColumn<C extends Column>(column: C, value: SQL): DecodedValue<GetColumnData<C>> {
  // Asserted: the column's decoder answers its own data type.
  return { sql: value, decode: (driverValue) => column.mapFromDriverValue(driverValue) as GetColumnData<C> };
}

/** `value` as one that may be NULL: its type widened to say so (a NULL is read as null, never decoded). */
export function orNull<T>(value: DecodedValue<T>): DecodedValue<T | null> {
  return value;
}

/** A count or other whole number (PostgreSQL answers a bigint as a string). */
export function asNumber(value: SQL): DecodedValue<number> {
  return { sql: value, decode: Number };
}

/** A condition's truth (SQLite answers 0 or 1). */
export function asBoolean(value: SQL): DecodedValue<boolean> {
  return { sql: value, decode: (driverValue) => driverValue === true || driverValue === 1 };
}

/** A text value (a value of a JSON list, say). */
export function asText(value: SQL): DecodedValue<string> {
  return { sql: value, decode: String };
}

/** A text value, decoded by `parse` (a JSON array built by the database, say). */
export function asParsed<T>(value: SQL, parse: (text: string) => T): DecodedValue<T> {
  return { sql: value, decode: (driverValue) => parse(String(driverValue)) };
}

/**
 * The rows `rest` (FROM, joins, WHERE, ORDER BY, LIMIT: everything after the select list) answers, each
 * with the selection's values, typed and decoded.
 */
export async function select<S extends Selection>(
  db: Queryable,
  selection: S,
  rest: SQL,
): Promise<RowOf<S>[]> {
  return await rowsOf(db, selection, (list) => sql`SELECT ${list} ${rest}`);
}

/** The first row `rest` answers, or undefined when it answers none. */
export async function selectFirst<S extends Selection>(
  db: Queryable,
  selection: S,
  rest: SQL,
): Promise<RowOf<S> | undefined> {
  const read = reader(selection);
  const row = await db.get(sql`SELECT ${read.list} ${rest}`);
  return row && read.decode(row);
}

/**
 * selectFirst for a query run on every request: `build` writes it once per engine, its varying values as
 * sql.placeholder()s, and each call gives only those values, so neither the query nor its SQL text is
 * built again (about a tenth of the CPU of GET /articles/{id} on PostgreSQL went to building them).
 */
export function preparedSelectFirst<S extends Selection>(
  build: (db: Queryable) => { selection: S; rest: SQL },
): (db: Queryable, values: PlaceholderValues) => Promise<RowOf<S> | undefined> {
  const preparedOf = preparedQueries(build);
  return async (db, values) => {
    const prepared = preparedOf(db);
    const row = await db.get(prepared.query, values);
    return row && prepared.decode(row);
  };
}

/** preparedSelectFirst answering every row. */
export function preparedSelect<S extends Selection>(
  build: (db: Queryable) => { selection: S; rest: SQL },
): (db: Queryable, values: PlaceholderValues) => Promise<RowOf<S>[]> {
  const preparedOf = preparedQueries(build);
  return async (db, values) => {
    const prepared = preparedOf(db);
    return (await db.all(prepared.query, values)).map(prepared.decode);
  };
}

/** The query `build` writes and its row decoder, built once per engine. */
function preparedQueries<S extends Selection>(build: (db: Queryable) => { selection: S; rest: SQL }) {
  return perEngine((db) => {
    const { selection, rest } = build(db);
    const read = reader(selection);
    return { query: sql`SELECT ${read.list} ${rest}`, decode: read.decode };
  });
}

/** The rows an INSERT, UPDATE or DELETE wrote, with the selection's values (its RETURNING clause). */
export async function returning<S extends Selection>(
  db: Queryable,
  selection: S,
  write: SQL,
): Promise<RowOf<S>[]> {
  return await rowsOf(db, selection, (list) => sql`${write} RETURNING ${list}`);
}

/** Every row of the query `around` makes of the selection's list, decoded. */
async function rowsOf<S extends Selection>(db: Queryable, selection: S, around: (list: SQL) => SQL) {
  const read = reader(selection);
  return (await db.all(around(read.list))).map(read.decode);
}

/** Whether `rest` (FROM, WHERE…) answers any row. */
export async function rowExists(db: Queryable, rest: SQL): Promise<boolean> {
  return (await db.get(sql`SELECT 1 ${rest}`)) !== undefined;
}

/** The decoder of a column, looked up once: an aliased table's columns are proxies, each read a trap. */
function columnDecoder(column: Column): (driverValue: unknown) => unknown {
  const decode = column.mapFromDriverValue;
  return (driverValue) => decode.call(column, driverValue);
}

const readers = new WeakMap<Selection, ReturnType<typeof buildReader>>();

/**
 * The select list naming each value as the selection does, and the decoding of a row it answers; built
 * once for a selection kept between calls (the summary's, say).
 */
function reader<S extends Selection>(selection: S) {
  let read = readers.get(selection);
  if (!read) {
    read = buildReader(selection);
    readers.set(selection, read);
  }
  // Asserted: the reader was built from this very selection.
  return read as ReturnType<typeof buildReader<S>>;
}

function buildReader<S extends Selection>(selection: S) {
  const values = Object.entries(selection).map(([name, value]) =>
    is(value, Column)
      ? { name, sql: sql`${value}`, decode: columnDecoder(value) }
      : { name, sql: value.sql, decode: value.decode },
  );
  const list = sql.join(
    values.map((value) => sql`${value.sql} AS ${sql.identifier(value.name)}`),
    sql`, `,
  );
  const decode = (row: Record<string, unknown>): RowOf<S> => {
    const decoded: Record<string, unknown> = {};
    for (const value of values) {
      const driverValue = row[value.name];
      decoded[value.name] =
        driverValue === null || driverValue === undefined ? null : value.decode(driverValue);
    }
    // Asserted: each value was decoded by the column or decoder its type comes from.
    return decoded as RowOf<S>;
  };
  return { list, decode };
}
