// One set of services runs on both engines, typed by the SQLite schema (db/database.ts); the PostgreSQL
// schema must say the same. At compile time every table's row types are equal (tsc fails on a drift); at
// run time the tables, columns, nullability, defaults, keys, unique and partial indexes and foreign keys are.
import { getTableConfig as pgTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { getTableName, is, Table } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as pgSchema from './postgres/schema';
import * as sqliteSchema from './schema';

/** true only when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only when its argument is `true`. */
function assertType<T extends true>(): T | void {}

type SqliteTables = typeof sqliteSchema;
type PgTables = typeof pgSchema;

// Both schemas export the same tables under the same names.
assertType<Equal<keyof SqliteTables, keyof PgTables>>();

type RowTypesInStep = {
  [Name in keyof SqliteTables & keyof PgTables]: [
    Equal<SqliteTables[Name]['$inferSelect'], PgTables[Name]['$inferSelect']>,
    Equal<SqliteTables[Name]['$inferInsert'], PgTables[Name]['$inferInsert']>,
  ];
};
// Every table's selected and inserted rows: a table whose pair is not [true, true] fails here.
assertType<Equal<RowTypesInStep[keyof RowTypesInStep], [true, true]>>();

/** The engine-neutral shape of a table: what the services rely on, whichever engine holds it. */
interface TableShape {
  name: string;
  columns: { key: string; name: string; notNull: boolean; hasDefault: boolean; primary: boolean }[];
  primaryKey: string[];
  indexes: { name: string; unique: boolean; columns: string[]; partial: boolean }[];
  foreignKeys: { columns: string[]; references: string; to: string[]; onDelete: string | undefined }[];
}

function columnName(column: unknown): string {
  return (column as { name: string }).name;
}

function shapeOf(
  key: string,
  config: ReturnType<typeof sqliteTableConfig> | ReturnType<typeof pgTableConfig>,
  columnsByKey: Record<string, { name: string }>,
): TableShape {
  const keyOf = new Map(Object.entries(columnsByKey).map(([property, column]) => [column.name, property]));
  return {
    name: config.name,
    columns: config.columns
      .map((column) => ({
        key: keyOf.get(column.name) ?? `? ${key}`,
        name: column.name,
        notNull: column.notNull,
        hasDefault: column.hasDefault,
        primary: column.primary,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    primaryKey: config.primaryKeys.flatMap((primaryKey) => primaryKey.columns.map(columnName)),
    indexes: config.indexes
      .map((index) => ({
        name: index.config.name ?? '',
        unique: index.config.unique,
        columns: index.config.columns.map(columnName),
        partial: index.config.where !== undefined,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    foreignKeys: config.foreignKeys
      .map((foreignKey) => {
        const reference = foreignKey.reference();
        return {
          columns: reference.columns.map(columnName),
          references: getTableName(reference.foreignTable),
          to: reference.foreignColumns.map(columnName),
          onDelete: foreignKey.onDelete,
        };
      })
      .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
  };
}

function tablesOf<T>(schema: Record<string, unknown>): [string, T][] {
  return Object.entries(schema).filter(([, value]) => is(value, Table)) as [string, T][];
}

describe('the SQLite and PostgreSQL schemas', () => {
  it('have the same tables under the same names', () => {
    const sqliteNames = tablesOf<SQLiteTable>(sqliteSchema).map(
      ([key, table]) => `${key}=${sqliteTableConfig(table).name}`,
    );
    const pgNames = tablesOf<PgTable>(pgSchema).map(([key, table]) => `${key}=${pgTableConfig(table).name}`);
    expect(pgNames.sort()).toEqual(sqliteNames.sort());
    expect(sqliteNames.length).toBeGreaterThan(15);
  });

  it.each(tablesOf<SQLiteTable>(sqliteSchema).map(([key]) => key))(
    '%s: same columns, nullability, defaults, keys, indexes and foreign keys',
    (key) => {
      const sqliteTable = sqliteSchema[key as keyof typeof sqliteSchema];
      const pgTable = pgSchema[key as keyof typeof pgSchema];
      const sqlite = shapeOf(key, sqliteTableConfig(sqliteTable), sqliteTable as never);
      const postgres = shapeOf(key, pgTableConfig(pgTable), pgTable as never);
      expect(postgres).toEqual(sqlite);
    },
  );
});
