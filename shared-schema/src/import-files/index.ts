// Reading other apps' export files (issue 12), pure TypeScript over bytes: the server's import worker and the
// app's import preview (a Web Worker) run this same code. A subpath of its own (`@lectern/shared-schema/
// import-files`), so that what imports the package's main entry doesn't pull in the zip and entity readers.
export { readImportFile, IMPORT_MAX_ITEMS, UNKNOWN_IMPORT_FORMAT } from './read-import-file';
export {
  ImportFormatError,
  importTotal,
  type ImportedHighlight,
  type ImportedItem,
  type ImportRowFailure,
  type ParsedImport,
} from './imported-item';
export { ZIP_MAX_ENTRIES, ZIP_MAX_TOTAL_BYTES } from './zip-entries';
