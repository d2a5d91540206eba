// What every import format is read into: one row of the reader's old library, before it becomes an article.
import type { ImportSource } from '../import-sources';

export interface ImportedHighlight {
  text: string;
  note: string | null;
  createdAt: string | null;
}

export interface ImportedItem {
  /** Where the row starts in the file (CSV line, HTML line, JSON entry number): named when the row fails. */
  line: number;
  url: string;
  title: string | null;
  /** The original saved date, ISO-8601 UTC. */
  createdAt: string | null;
  tags: string[];
  isRead: boolean;
  isArchived: boolean;
  isFavorite: boolean;
  author: string | null;
  description: string | null;
  imageUrl: string | null;
  /** Article HTML the file carries (Omnivore, Wallabag); still sanitised before it is stored. */
  content: string | null;
  highlights: ImportedHighlight[];
}

export interface ImportRowFailure {
  line: number;
  reason: string;
}

export interface ParsedImport {
  source: ImportSource;
  items: ImportedItem[];
  failures: ImportRowFailure[];
}

/** The rows of a file, as the import counts them ("Pocket export, 8,412 items"): read or failed alike. */
export function importTotal(parsed: Pick<ParsedImport, 'items' | 'failures'>): number {
  return parsed.items.length + parsed.failures.length;
}

/** Thrown when a file is no known format, or is malformed as a whole; the text is shown to the reader. */
export class ImportFormatError extends Error {}

export function emptyItem(line: number, url: string): ImportedItem {
  return {
    line,
    url,
    title: null,
    createdAt: null,
    tags: [],
    isRead: false,
    isArchived: false,
    isFavorite: false,
    author: null,
    description: null,
    imageUrl: null,
    content: null,
    highlights: [],
  };
}
