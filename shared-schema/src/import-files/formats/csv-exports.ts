// The CSV exports: Pocket, Instapaper and Raindrop, told apart by their header rows.
import { csvTable, type CsvRow } from '../csv';
import type { ImportSource } from '../../import-sources';
import { emptyItem, type ImportedItem, type ImportRowFailure, type ParsedImport } from '../imported-item';
import {
  IMPORT_HIGHLIGHTS_PER_ITEM,
  dateFromText,
  dateFromUnix,
  splitTags,
  textOrNull,
  truthy,
  uniqueTags,
  webAddress,
} from '../import-fields';

type CsvSource = Extract<ImportSource, 'pocket' | 'instapaper' | 'raindrop'>;

const REQUIRED_COLUMNS: Record<CsvSource, readonly string[]> = {
  pocket: ['title', 'url', 'time_added'],
  instapaper: ['url', 'title', 'folder', 'timestamp'],
  raindrop: ['url', 'title', 'folder', 'created'],
};

/** Which CSV export a header row belongs to, or null. */
export function csvSourceOf(header: readonly string[]): CsvSource | null {
  const columns = new Set(header);
  for (const source of ['pocket', 'instapaper', 'raindrop'] as const) {
    if (REQUIRED_COLUMNS[source].every((column) => columns.has(column))) return source;
  }
  return null;
}

export function headerOfCsv(text: string): string[] {
  return csvTable(text.slice(0, 4096).split(/\r?\n/, 1)[0] ?? '').header;
}

const READ_ROW: Record<CsvSource, (row: CsvRow, url: string) => ImportedItem> = {
  pocket(row, url) {
    const item = emptyItem(row.line, url);
    item.title = textOrNull(row.get('title'));
    item.createdAt = dateFromUnix(row.get('time_added'));
    item.tags = splitTags(row.get('tags'), '|');
    // Pocket's archive is where read articles go.
    item.isArchived = row.get('status').toLowerCase() === 'archive';
    item.isRead = item.isArchived;
    return item;
  },
  instapaper(row, url) {
    const item = emptyItem(row.line, url);
    item.title = textOrNull(row.get('title'));
    item.description = textOrNull(row.get('selection'));
    item.createdAt = dateFromUnix(row.get('timestamp'));
    const folder = row.get('folder');
    const folderTags: string[] = [];
    if (folder === 'Archive') {
      item.isArchived = true;
      item.isRead = true;
    } else if (folder === 'Starred') {
      item.isFavorite = true;
    } else if (folder !== '' && folder !== 'Unread') {
      folderTags.push(folder);
    }
    item.tags = uniqueTags([...instapaperTags(row.get('tags')), ...folderTags]);
    return item;
  },
  raindrop(row, url) {
    const item = emptyItem(row.line, url);
    item.title = textOrNull(row.get('title'));
    item.description = textOrNull(row.get('excerpt')) ?? textOrNull(row.get('note'));
    item.imageUrl = textOrNull(row.get('cover'));
    item.createdAt = dateFromText(row.get('created'));
    item.isFavorite = truthy(row.get('favorite'));
    const folders = row
      .get('folder')
      .split('/')
      .filter((name) => name.trim() !== 'Unsorted');
    item.tags = uniqueTags([...splitTags(row.get('tags'), ','), ...folders]);
    item.highlights = raindropHighlights(row.get('highlights'));
    return item;
  },
};

/** Instapaper writes tags as a JSON array of names (`["a","b"]`); older files left the column out. */
function instapaperTags(text: string): string[] {
  if (text === '') return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? uniqueTags(value) : [];
  } catch {
    return splitTags(text, ',');
  }
}

/** Raindrop puts one highlight a line, as `Highlight: …` with an optional `Note: …` line after it. */
function raindropHighlights(text: string): ImportedItem['highlights'] {
  const highlights: ImportedItem['highlights'] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (highlights.length === IMPORT_HIGHLIGHTS_PER_ITEM && !/^note:/i.test(line)) break;
    const last = highlights[highlights.length - 1];
    if (last && /^note:/i.test(line)) {
      last.note = line.slice(5).trim() || null;
      continue;
    }
    const quote = line.replace(/^highlight:\s*/i, '');
    if (quote !== '') highlights.push({ text: quote, note: null, createdAt: null });
  }
  return highlights;
}

export function parseCsvExport(text: string, source: CsvSource): ParsedImport {
  const { rows } = csvTable(text);
  const items: ImportedItem[] = [];
  const failures: ImportRowFailure[] = [];
  for (const row of rows) {
    if (row.unterminated) {
      failures.push({ line: row.line, reason: 'A quoted field is never closed' });
      continue;
    }
    const address = webAddress(row.get('url'));
    if ('reason' in address) {
      failures.push({ line: row.line, reason: address.reason });
      continue;
    }
    items.push(READ_ROW[source](row, address.url));
  }
  return { source, items, failures };
}
