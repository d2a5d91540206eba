// Omnivore's export zip: `metadata_*.json` arrays of items, `highlights/{slug}.md` and `content/{slug}.html`.
import { emptyItem, type ImportedItem, type ImportRowFailure, type ParsedImport } from '../imported-item';
import {
  IMPORT_HIGHLIGHTS_PER_ITEM,
  dateFromText,
  record,
  textOrNull,
  uniqueTags,
  webAddress,
} from '../import-fields';

export const OMNIVORE_METADATA_FILE = /(^|\/)metadata_[^/]*\.json$/;

export function isOmnivoreItems(value: unknown): value is unknown[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  const first: unknown = value[0];
  return (
    typeof first === 'object' && first !== null && 'url' in first && ('savedAt' in first || 'slug' in first)
  );
}

/**
 * Omnivore writes each highlight as a Markdown quote (`> text`, paragraphs joined by `> ` lines), followed by
 * its labels (`#label`) and its note as plain paragraphs, highlights separated by blank lines.
 */
export function parseOmnivoreHighlights(markdown: string): ImportedItem['highlights'] {
  const highlights: ImportedItem['highlights'] = [];
  let quote: string[] | null = null;
  let notes: string[] = [];
  const finish = () => {
    const text = quote?.join('\n').trim();
    if (text) highlights.push({ text, note: notes.join('\n\n').trim() || null, createdAt: null });
    quote = null;
    notes = [];
  };
  let afterBlankLine = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (line.trim() === '') {
      afterBlankLine = true;
    } else if (line.startsWith('>')) {
      // A quote's own paragraphs are joined by `> ` lines; a blank line starts the next highlight.
      if (quote === null || afterBlankLine) {
        finish();
        if (highlights.length === IMPORT_HIGHLIGHTS_PER_ITEM) return highlights;
        quote = [];
      }
      quote.push(line.slice(1).trim());
      afterBlankLine = false;
    } else {
      if (quote !== null && !isLabelLine(line)) notes.push(line.trim());
      afterBlankLine = false;
    }
  }
  finish();
  return highlights;
}

/** `#label #other`: the highlight's labels, not its note. */
function isLabelLine(line: string): boolean {
  return line
    .trim()
    .split(/\s+/)
    .every((word) => word.length > 1 && word.startsWith('#'));
}

export interface OmnivoreFiles {
  metadata: { name: string; text: string }[];
  text(path: string): string | null;
}

export function parseOmnivore(files: OmnivoreFiles): ParsedImport {
  const items: ImportedItem[] = [];
  const failures: ImportRowFailure[] = [];
  let line = 0;
  for (const file of files.metadata) {
    let entries: unknown;
    try {
      entries = JSON.parse(file.text);
    } catch {
      failures.push({ line: line + 1, reason: `${file.name} is not valid JSON` });
      continue;
    }
    if (!Array.isArray(entries)) {
      failures.push({ line: line + 1, reason: `${file.name} holds no list of items` });
      continue;
    }
    for (const value of entries) {
      line += 1;
      const entry = record(value);
      const state = typeof entry.state === 'string' ? entry.state.toLowerCase() : '';
      if (state === 'deleted') continue;
      const address = webAddress(typeof entry.url === 'string' ? entry.url : '');
      if ('reason' in address) {
        failures.push({ line, reason: address.reason });
        continue;
      }
      const item = emptyItem(line, address.url);
      item.title = textOrNull(entry.title);
      item.description = textOrNull(entry.description);
      item.author = textOrNull(entry.author);
      item.imageUrl = textOrNull(entry.thumbnail);
      item.createdAt = dateFromText(typeof entry.savedAt === 'string' ? entry.savedAt : null);
      item.isArchived = state === 'archived';
      const progress = typeof entry.readingProgress === 'number' ? entry.readingProgress : 0;
      item.isRead = item.isArchived || progress >= 100;
      const labels = Array.isArray(entry.labels) ? entry.labels : [];
      item.tags = uniqueTags(labels.map((label) => (typeof label === 'string' ? label : record(label).name)));
      const slug = typeof entry.slug === 'string' && /^[^/\\]+$/.test(entry.slug) ? entry.slug : null;
      if (slug) {
        item.content = textOrNull(files.text(`content/${slug}.html`));
        const highlights = files.text(`highlights/${slug}.md`);
        if (highlights) item.highlights = parseOmnivoreHighlights(highlights);
      }
      items.push(item);
    }
  }
  return { source: 'omnivore', items, failures };
}
