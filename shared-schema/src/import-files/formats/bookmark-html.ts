// Bookmark files in HTML: the Netscape format every browser exports (folders become tags), and Pocket's older
// HTML export (`<h1>Unread</h1>` and `<h1>Read Archive</h1>` sections). Real files are loose HTML (unclosed <DT>,
// <p> anywhere), so this is one linear scan over the tags that matter rather than a DOM.
import { decodeHTML } from 'entities/decode';
import { emptyItem, type ImportedItem, type ImportRowFailure, type ParsedImport } from '../imported-item';
import { dateFromUnix, splitTags, textOrNull, uniqueTags, webAddress } from '../import-fields';

/** Top folders a browser makes itself: not the reader's own folders, so not tags. */
const BROWSER_ROOT_FOLDERS = new Set([
  'bookmarks',
  'bookmarks bar',
  'bookmarks toolbar',
  'bookmarks menu',
  'other bookmarks',
  'mobile bookmarks',
  'favorites bar',
  'favourites bar',
  'other favorites',
  'menu',
  'toolbar',
  'unfiled',
]);

export function isNetscapeBookmarks(head: string): boolean {
  return head.toUpperCase().includes('<!DOCTYPE NETSCAPE-BOOKMARK-FILE');
}

export function isPocketHtml(head: string): boolean {
  return /<title>\s*Pocket Export\s*<\/title>/i.test(head) || /<h1>\s*Unread\s*<\/h1>/i.test(head);
}

interface Tag {
  name: string;
  closing: boolean;
  attributes: Map<string, string>;
}

/**
 * The tag between `<` at `start` and the `>` at `end`. A tag ends at its first `>` (bookmark files escape
 * it inside attributes), so tags never overlap and the whole file is read once.
 */
function readTag(html: string, start: number, end: number): Tag | null {
  let index = start + 1;
  const closing = html[index] === '/';
  if (closing) index += 1;
  const nameStart = index;
  while (index < end && /[A-Za-z0-9]/.test(html[index]!)) index += 1;
  if (index === nameStart) return null;
  const name = html.slice(nameStart, index).toLowerCase();
  const attributes = new Map<string, string>();
  while (index < end) {
    while (index < end && /[\s/]/.test(html[index]!)) index += 1;
    const keyStart = index;
    while (index < end && !/[\s=/]/.test(html[index]!)) index += 1;
    const key = html.slice(keyStart, index).toLowerCase();
    while (index < end && /\s/.test(html[index]!)) index += 1;
    let value = '';
    if (html[index] === '=') {
      index += 1;
      while (index < end && /\s/.test(html[index]!)) index += 1;
      const quote = html[index];
      if (quote === '"' || quote === "'") {
        const close = html.slice(index + 1, end).indexOf(quote);
        const valueEnd = close === -1 ? end : index + 1 + close;
        value = html.slice(index + 1, valueEnd);
        index = valueEnd + 1;
      } else {
        const valueStart = index;
        while (index < end && !/\s/.test(html[index]!)) index += 1;
        value = html.slice(valueStart, index);
      }
    }
    if (key !== '') attributes.set(key, decodeEntities(value));
  }
  return { name, closing, attributes };
}

export function decodeEntities(text: string): string {
  return text.includes('&') ? decodeHTML(text) : text;
}

/** Longest text kept between an opening and its closing tag; a longer span is malformed, read as empty. */
const MAX_LABEL_LENGTH = 16_384;

/** Finds closing tags scanning forward only, so a file of unclosed tags still costs one pass. */
class CloseFinder {
  private readonly next = new Map<string, number>();
  constructor(private readonly lower: string) {}

  /** The label between `from` and `</name`, entities decoded and white space folded. */
  textUntil(html: string, from: number, name: string): { text: string; end: number } {
    let close = this.next.get(name) ?? -2;
    if (close !== -1 && close < from) {
      close = this.lower.indexOf(`</${name}`, from);
      this.next.set(name, close);
    }
    if (close === -1 || close - from > MAX_LABEL_LENGTH) return { text: '', end: from };
    const text = decodeEntities(stripTags(html.slice(from, close)))
      .replace(/\s+/g, ' ')
      .trim();
    return { text, end: close };
  }
}

function stripTags(html: string): string {
  let text = '';
  let index = 0;
  for (;;) {
    const open = html.indexOf('<', index);
    if (open === -1) return text + html.slice(index);
    text += html.slice(index, open);
    const close = html.indexOf('>', open);
    if (close === -1) return text;
    index = close + 1;
  }
}

function lineAt(lineStarts: number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/** Both HTML formats: anchors with their folder path (Netscape) or section (Pocket). */
export function parseBookmarkHtml(html: string, source: 'bookmarks' | 'pocket'): ParsedImport {
  const lower = html.toLowerCase();
  const lineStarts = [0];
  for (let at = html.indexOf('\n'); at !== -1; at = html.indexOf('\n', at + 1)) lineStarts.push(at + 1);

  const items: ImportedItem[] = [];
  const failures: ImportRowFailure[] = [];
  const folders: (string | null)[] = [];
  let pendingFolder: string | null = null;
  let section = '';
  const labels = new CloseFinder(lower);
  let tagEnd = -1;
  let index = lower.indexOf('<');
  while (index !== -1) {
    if (tagEnd < index) tagEnd = lower.indexOf('>', index);
    if (tagEnd === -1) break;
    const tag = readTag(html, index, tagEnd);
    if (!tag) {
      index = lower.indexOf('<', index + 1);
      continue;
    }
    let next = tagEnd + 1;
    if (tag.name === 'h3' && !tag.closing) {
      const heading = labels.textUntil(html, next, 'h3');
      pendingFolder = heading.text;
      next = heading.end;
    } else if (tag.name === 'h1' && !tag.closing) {
      const heading = labels.textUntil(html, next, 'h1');
      section = heading.text.toLowerCase();
      next = heading.end;
    } else if (tag.name === 'dl' && !tag.closing) {
      folders.push(pendingFolder);
      pendingFolder = null;
    } else if (tag.name === 'dl' && tag.closing) {
      folders.pop();
    } else if (tag.name === 'a' && !tag.closing) {
      const label = labels.textUntil(html, next, 'a');
      next = label.end;
      const line = lineAt(lineStarts, index);
      const address = webAddress(tag.attributes.get('href') ?? '');
      if ('reason' in address) {
        // Bookmarklets and javascript: links sit in every bookmarks bar; they are not articles.
        failures.push({ line, reason: address.reason });
      } else {
        const item = emptyItem(line, address.url);
        item.title = textOrNull(label.text);
        item.createdAt = dateFromUnix(tag.attributes.get('add_date') ?? tag.attributes.get('time_added'));
        const folderTags = folders.filter(
          (folder): folder is string => folder !== null && !BROWSER_ROOT_FOLDERS.has(folder.toLowerCase()),
        );
        item.tags = uniqueTags([...splitTags(tag.attributes.get('tags'), ','), ...folderTags]);
        if (source === 'pocket' && section.includes('archive')) {
          item.isArchived = true;
          item.isRead = true;
        }
        items.push(item);
      }
    }
    index = lower.indexOf('<', next);
  }
  return { source, items, failures };
}
