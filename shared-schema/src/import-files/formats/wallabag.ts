// Wallabag's JSON export: an array of entries with their content, tags and annotations.
import { emptyItem, type ImportedItem, type ImportRowFailure, type ParsedImport } from '../imported-item';
import {
  IMPORT_HIGHLIGHTS_PER_ITEM,
  dateFromText,
  record,
  textOrNull,
  truthy,
  uniqueTags,
  webAddress,
} from '../import-fields';

export function isWallabagEntries(value: unknown): value is unknown[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  const first: unknown = value[0];
  return (
    typeof first === 'object' &&
    first !== null &&
    'url' in first &&
    ('is_archived' in first || 'is_starred' in first || 'annotations' in first)
  );
}

export function parseWallabag(entries: unknown[]): ParsedImport {
  const items: ImportedItem[] = [];
  const failures: ImportRowFailure[] = [];
  entries.forEach((value, index) => {
    const line = index + 1;
    const entry = record(value);
    const address = webAddress(typeof entry.url === 'string' ? entry.url : '');
    if ('reason' in address) {
      failures.push({ line, reason: address.reason });
      return;
    }
    const item = emptyItem(line, address.url);
    item.title = textOrNull(entry.title);
    item.createdAt = dateFromText(typeof entry.created_at === 'string' ? entry.created_at : null);
    item.isArchived = truthy(entry.is_archived);
    item.isRead = item.isArchived;
    item.isFavorite = truthy(entry.is_starred);
    // Tags are names in exports, objects with a label in the API's shape.
    const tags = Array.isArray(entry.tags) ? entry.tags : [];
    item.tags = uniqueTags(tags.map((tag) => (typeof tag === 'string' ? tag : record(tag).label)));
    const authors = Array.isArray(entry.published_by) ? entry.published_by : [];
    item.author = textOrNull(authors.filter((name) => typeof name === 'string').join(', '));
    item.imageUrl = textOrNull(entry.preview_picture);
    item.content = textOrNull(entry.content);
    const annotations = Array.isArray(entry.annotations) ? entry.annotations : [];
    for (const annotation of annotations.slice(0, IMPORT_HIGHLIGHTS_PER_ITEM * 2).map(record)) {
      if (item.highlights.length === IMPORT_HIGHLIGHTS_PER_ITEM) break;
      const text = textOrNull(annotation.quote);
      if (!text) continue;
      item.highlights.push({
        text,
        note: textOrNull(annotation.text),
        createdAt: dateFromText(typeof annotation.created_at === 'string' ? annotation.created_at : null),
      });
    }
    items.push(item);
  });
  return { source: 'wallabag', items, failures };
}
