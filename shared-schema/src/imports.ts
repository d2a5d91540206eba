// Imports of another app's export (issue 12): the formats, their names as the reader sees them, and the
// import as GET /api/imports/{id} answers it. The server and the app both read these.
import { Type, type Static } from 'typebox';

export const IMPORT_SOURCES = [
  'pocket',
  'instapaper',
  'omnivore',
  'wallabag',
  'raindrop',
  'bookmarks',
] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** How the formats are named to the reader ("Pocket export, 8,412 items"). */
export const IMPORT_SOURCE_NAMES: Record<ImportSource, string> = {
  pocket: 'Pocket export',
  instapaper: 'Instapaper export',
  omnivore: 'Omnivore export',
  wallabag: 'Wallabag export',
  raindrop: 'Raindrop export',
  bookmarks: 'Browser bookmarks',
};

export function isImportSource(value: string): value is ImportSource {
  return (IMPORT_SOURCES as readonly string[]).includes(value);
}

/** The reader's name of a source; an unknown one (a newer server) is shown as it is. */
export function importSourceName(source: string): string {
  return isImportSource(source) ? IMPORT_SOURCE_NAMES[source] : source;
}

export const ImportStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('failed'),
]);
export type ImportStatus = Static<typeof ImportStatus>;

export const ImportFailure = Type.Object({
  line: Type.Integer(),
  url: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
});
export type ImportFailure = Static<typeof ImportFailure>;

export const ImportView = Type.Object({
  id: Type.String(),
  source: Type.String(),
  status: ImportStatus,
  total: Type.Integer(),
  imported: Type.Integer(),
  skipped: Type.Integer(),
  failed: Type.Integer(),
  /** Pages to fetch for the imported rows, and how many are fetched or could not be. */
  pages_total: Type.Integer(),
  pages_fetched: Type.Integer(),
  pages_failed: Type.Integer(),
  created_at: Type.String(),
  finished_at: Type.Union([Type.String(), Type.Null()]),
  /** Once done: the rows that failed, with their line in the file and why. */
  failures: Type.Optional(Type.Array(ImportFailure)),
});
export type ImportView = Static<typeof ImportView>;

export const ImportResponse = Type.Object({ import: ImportView });
export type ImportResponse = Static<typeof ImportResponse>;

export const ImportListResponse = Type.Object({ imports: Type.Array(ImportView) });
export type ImportListResponse = Static<typeof ImportListResponse>;
