// What the import worker does with an uploaded file: read its rows with the reader the app's preview runs
// too (shared-schema/src/import-files), then make any article HTML it carries safe to store (the same
// sanitizer as a fetched page) and time it, so the main thread only writes rows.
import { htmlToText, type ImportSource } from '@lectern/shared-schema';
import {
  ImportFormatError,
  readImportFile,
  type ImportedItem,
  type ParsedImport,
} from '@lectern/shared-schema/import-files';
import { readingTimeMinutes } from '../extraction/reading-time';
import { sanitizeArticleHtml } from '../extraction/sanitize-article';

export interface PreparedItem extends ImportedItem {
  /** Set when `content` came with the file: its text for search, and reading time. */
  contentText: string | null;
  readingTime: number | null;
}

export type PreparedImport =
  | { ok: true; source: ImportSource; items: PreparedItem[]; failures: ParsedImport['failures'] }
  | { ok: false; error: string };

/** Carried bodies larger than this are dropped (the page is fetched instead), as a fetched page is capped. */
const MAX_CARRIED_CONTENT = 2 * 1024 * 1024;
/**
 * Carried bodies kept per import in all: past it the pages are fetched instead. A zip can name one large
 * body from many items (Omnivore's slug), so the zip's own size doesn't bound this.
 */
const MAX_CARRIED_CONTENT_TOTAL = 64 * 1024 * 1024;

export function prepareImport(bytes: Uint8Array, forced?: ImportSource): PreparedImport {
  let parsed: ParsedImport;
  try {
    parsed = readImportFile(bytes, forced);
  } catch (error) {
    if (error instanceof ImportFormatError) return { ok: false, error: error.message };
    throw error;
  }
  let carried = 0;
  const items = parsed.items.map((item): PreparedItem => {
    if (
      !item.content ||
      item.content.length > MAX_CARRIED_CONTENT ||
      carried + item.content.length > MAX_CARRIED_CONTENT_TOTAL
    ) {
      return { ...item, content: null, contentText: null, readingTime: null };
    }
    carried += item.content.length;
    const content = sanitizeArticleHtml(item.content, item.url);
    const text = htmlToText(content);
    return text.trim() === ''
      ? { ...item, content: null, contentText: null, readingTime: null }
      : { ...item, content, contentText: text, readingTime: readingTimeMinutes(text) };
  });
  return { ok: true, source: parsed.source, items, failures: parsed.failures };
}
