// Imports of another app's export (issue 12): the formats, their names as the reader sees them, and the
// import as GET /api/imports/{id} answers it. The server and the app both read these.
import { Type, type Static } from 'typebox';

export {
  IMPORT_SOURCE_NAMES,
  IMPORT_SOURCES,
  importSourceName,
  isImportSource,
  type ImportSource,
} from './import-sources';

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
