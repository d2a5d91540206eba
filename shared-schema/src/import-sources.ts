// The import formats and their names as the reader sees them. Apart from the TypeBox schemas of
// imports.ts, so that the export reader (import-files/, bundled into the app's import worker) needs no
// schema library.
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
