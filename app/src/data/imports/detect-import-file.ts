// A first guess at an export's format from its name and first bytes, shown before the upload ("Pocket
// export (CSV)"). Only a hint: the server reads the whole file and its answer is the one that counts.
import { IMPORT_SOURCE_NAMES, type ImportSource } from '@lectern/shared-schema';

export interface DetectedImportFile {
  /** Null when the start of the file names no format we know (the server may still). */
  source: ImportSource | null;
  /** "Pocket export (CSV)", "Omnivore export (zip)", "Unrecognised file". */
  label: string;
}

/** Enough of a file to see its header row, its markup or the shape of its JSON. */
const SNIFF_BYTES = 8 * 1024;

function withKind(source: ImportSource, kind: string): DetectedImportFile {
  return { source, label: `${IMPORT_SOURCE_NAMES[source]} (${kind})` };
}

function csvSource(header: string): ImportSource | null {
  const columns = header
    .toLowerCase()
    .split(',')
    .map((column) => column.trim().replace(/^"|"$/g, ''));
  const has = (...names: string[]) => names.every((name) => columns.includes(name));
  if (has('url', 'time_added')) return 'pocket';
  if (has('url', 'title', 'selection', 'folder', 'timestamp')) return 'instapaper';
  if (has('id', 'title', 'url', 'folder', 'tags', 'created')) return 'raindrop';
  return null;
}

/** Reads the name and the first few KB: instant even for a 50 MB file. */
export async function detectImportFile(file: Blob & { name?: string }): Promise<DetectedImportFile> {
  const name = (file.name ?? '').toLowerCase();
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  // A zip starts "PK\x03\x04": Pocket's mailed CSV parts or Omnivore's export; only the server opens it.
  if (head[0] === 0x50 && head[1] === 0x4b) {
    if (name.includes('omnivore')) return withKind('omnivore', 'zip');
    if (name.includes('pocket') || name.includes('part_')) return withKind('pocket', 'zip');
    return { source: null, label: 'Zip archive' };
  }
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, '');
  const start = text.trimStart();
  if (start.startsWith('[') || start.startsWith('{')) {
    if (/"is_archived"|"is_starred"/.test(text)) return withKind('wallabag', 'JSON');
    return { source: null, label: 'JSON file' };
  }
  if (/^<!doctype netscape-bookmark-file/i.test(start)) return withKind('bookmarks', 'HTML');
  if (/<h1>\s*(unread|read archive)\s*<\/h1>/i.test(text) || /<a [^>]*time_added=/i.test(text))
    return withKind('pocket', 'HTML');
  if (start.startsWith('<')) return { source: null, label: 'HTML file' };
  const source = csvSource(start.split(/\r?\n/, 1)[0] ?? '');
  if (source) return withKind(source, 'CSV');
  return { source: null, label: name.endsWith('.csv') ? 'CSV file' : 'Unrecognised file' };
}
