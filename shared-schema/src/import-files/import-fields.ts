// Field readers shared by the formats: dates, tags, booleans, URLs. Each answers null for what it can't read.
import { ARTICLE_TAGS_MAX, TAG_NAME_MAX_LENGTH } from '../constants';
import { tagNameKey } from '../tag-identity';
import { normalizeTagName } from '../validation';

const EARLIEST = Date.UTC(1990, 0, 1);
const LATEST_AHEAD_MS = 2 * 24 * 60 * 60 * 1000;

function validTime(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > Date.now() + LATEST_AHEAD_MS) return null;
  return new Date(ms).toISOString();
}

/** Unix time in seconds (Pocket, Instapaper, bookmarks' ADD_DATE), or milliseconds / microseconds when larger. */
export function dateFromUnix(text: string | null | undefined): string | null {
  const value = text?.trim() ?? '';
  if (!/^\d{1,17}$/.test(value)) return null;
  const number = Number(value);
  if (number > 1e14) return validTime(number / 1000); // Chromium's bookmark files count microseconds
  if (number > 1e11) return validTime(number);
  return validTime(number * 1000);
}

/** An ISO-8601 (or other Date.parse-able) date, or unix time when the text is all digits. */
export function dateFromText(text: string | null | undefined): string | null {
  const value = text?.trim() ?? '';
  if (value === '') return null;
  if (/^\d+$/.test(value)) return dateFromUnix(value);
  return validTime(Date.parse(value));
}

/** Tags split on a separator, trimmed, empty and repeated ones dropped, each capped like the save form's. */
export function splitTags(text: string | null | undefined, separator: string): string[] {
  return uniqueTags((text ?? '').split(separator));
}

/** Highlights kept per article at most: a real reader's are a few dozen; a file can't make it a flood. */
export const IMPORT_HIGHLIGHTS_PER_ITEM = 500;
/** Tag names as the save form's rule takes them: one per tag identity (tagNameKey), 50 of 100 characters. */
export function uniqueTags(names: readonly unknown[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const name of names) {
    if (typeof name !== 'string') continue;
    const tag = normalizeTagName(name).slice(0, TAG_NAME_MAX_LENGTH).trim();
    const key = tagNameKey(tag);
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
    if (tags.length === ARTICLE_TAGS_MAX) break;
  }
  return tags;
}

/** true/1/yes in any case. */
export function truthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return /^(true|1|yes)$/i.test(value.trim());
  return false;
}

/** A row's address when it is a web address; the reason otherwise. */
export function webAddress(text: string): { url: string } | { reason: string } {
  const value = text.trim();
  if (value === '') return { reason: 'No URL' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { reason: `Not a valid URL: ${value.slice(0, 200)}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { reason: `Not a web address: ${value.slice(0, 200)}` };
  }
  return { url: url.href };
}

export function textOrNull(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** A JSON value's fields, or none when it is not an object (a malformed entry reads as empty). */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
