// Tells an import file's format from its content (zip, JSON shape, markup, CSV header) and reads its rows.
// The server's import worker and the app's import preview both run it, so what the screen shows before
// Start ("Pocket export, 8,412 items", or why the file can't be read) is what the server will find.
import { csvSourceOf, headerOfCsv, parseCsvExport } from './formats/csv-exports';
import { isNetscapeBookmarks, isPocketHtml, parseBookmarkHtml } from './formats/bookmark-html';
import { isOmnivoreItems, OMNIVORE_METADATA_FILE, parseOmnivore } from './formats/omnivore';
import { isWallabagEntries, parseWallabag } from './formats/wallabag';
import { IMPORT_SOURCE_NAMES, type ImportSource } from '../import-sources';
import { ImportFormatError, importTotal, type ParsedImport } from './imported-item';
import { readZipEntries } from './zip-entries';

/** Most rows one import takes: a library of a lifetime, not a crawl. */
export const IMPORT_MAX_ITEMS = 100_000;

export const UNKNOWN_IMPORT_FORMAT =
  'This file is not an export Lectern can read. Lectern imports Pocket (CSV, ZIP or HTML), Instapaper (CSV), ' +
  'Omnivore (ZIP), Wallabag (JSON), Raindrop (CSV) and browser bookmarks (HTML).';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((byte, index) => bytes[index] === byte);
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function decodeText(bytes: Uint8Array): string {
  return withoutBom(new TextDecoder('utf-8').decode(bytes));
}

/** Reads an uploaded export; `forced` (the reader's choice) must agree with what the file is. */
export function readImportFile(bytes: Uint8Array, forced?: ImportSource): ParsedImport {
  const parsed = isZip(bytes) ? readZip(bytes) : readText(decodeText(bytes));
  if (forced && forced !== parsed.source) {
    // Shown before Start too, in the words the format menu uses.
    throw new ImportFormatError(
      `This file is not in the format chosen (${IMPORT_SOURCE_NAMES[forced]}). ${UNKNOWN_IMPORT_FORMAT}`,
    );
  }
  if (importTotal(parsed) === 0) {
    throw new ImportFormatError('This export holds no saved articles.');
  }
  if (importTotal(parsed) > IMPORT_MAX_ITEMS) {
    throw new ImportFormatError(
      `This export holds more than ${IMPORT_MAX_ITEMS.toLocaleString('en-US')} items; split it into smaller files.`,
    );
  }
  return parsed;
}

function readText(text: string): ParsedImport {
  const start = text.trimStart().slice(0, 1);
  if (start === '[' || start === '{') return readJson(text);
  const head = text.slice(0, 4096);
  if (start === '<') {
    if (isNetscapeBookmarks(head)) return parseBookmarkHtml(text, 'bookmarks');
    if (isPocketHtml(head)) return parseBookmarkHtml(text, 'pocket');
    throw new ImportFormatError(UNKNOWN_IMPORT_FORMAT);
  }
  const source = csvSourceOf(headerOfCsv(text));
  if (!source) throw new ImportFormatError(UNKNOWN_IMPORT_FORMAT);
  return parseCsvExport(text, source);
}

function readJson(text: string): ParsedImport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImportFormatError(`This JSON file is damaged and could not be read. ${UNKNOWN_IMPORT_FORMAT}`);
  }
  if (isWallabagEntries(value)) return parseWallabag(value);
  if (isOmnivoreItems(value)) {
    return parseOmnivore({ metadata: [{ name: 'metadata.json', text }], text: () => null });
  }
  throw new ImportFormatError(UNKNOWN_IMPORT_FORMAT);
}

function readZip(bytes: Uint8Array): ParsedImport {
  const files = readZipEntries(bytes, {
    required: (name) =>
      OMNIVORE_METADATA_FILE.test(name) ||
      /^(.*\/)?highlights\/[^/]+\.md$/.test(name) ||
      /\.csv$/i.test(name),
    optional: (name) => /^(.*\/)?content\/[^/]+\.html$/.test(name),
  });
  const names = [...files.keys()].sort();
  const metadata = names.filter((name) => OMNIVORE_METADATA_FILE.test(name));
  if (metadata.length > 0) {
    // Omnivore's paths are relative to the folder the metadata files sit in.
    const root = metadata[0]!.slice(0, metadata[0]!.lastIndexOf('/') + 1);
    return parseOmnivore({
      metadata: metadata.map((name) => ({ name, text: files.get(name) ?? '' })),
      text: (path) => files.get(`${root}${path}`) ?? null,
    });
  }
  // Pocket mailed its export as a zip of CSV parts (part_000000.csv, …).
  const parts = names.filter((name) => /\.csv$/i.test(name));
  if (parts.length === 0) throw new ImportFormatError(UNKNOWN_IMPORT_FORMAT);
  const merged: ParsedImport = { source: 'pocket', items: [], failures: [] };
  for (const name of parts) {
    const text = withoutBom(files.get(name) ?? '');
    if (csvSourceOf(headerOfCsv(text)) !== 'pocket') {
      throw new ImportFormatError(`${name} in the zip is not a Pocket CSV file. ${UNKNOWN_IMPORT_FORMAT}`);
    }
    const part = parseCsvExport(text, 'pocket');
    for (const item of part.items) merged.items.push(item);
    for (const failure of part.failures) {
      merged.failures.push({ line: failure.line, reason: `${name}: ${failure.reason}` });
    }
  }
  return merged;
}
