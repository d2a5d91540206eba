// When two tag names are the same tag: one key, computed alike on the device (Dexie) and the server (SQLite).
// SQLite's lower() folds ASCII only and JavaScript's toLowerCase() folds the rest, so before this rule
// "RÉSUMÉ" and "résumé" were one tag on a device and two on the server.
import { normalizeTagName } from './validation';

/**
 * Full case folding differs from lower-casing for a few letters: ß and ẞ fold to "ss", the final sigma to σ,
 * and the Latin ligatures to their letters. Turkish İ and ı follow the default (non-Turkic) folding: İ is
 * i with a dot above, ı stays ı.
 */
const FULL_FOLDS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  ς: 'σ',
  ﬀ: 'ff',
  ﬁ: 'fi',
  ﬂ: 'fl',
  ﬃ: 'ffi',
  ﬄ: 'ffl',
  ﬅ: 'st',
  ﬆ: 'st',
};
const FULL_FOLD_PATTERN = /[ßẞςﬀ-ﬆ]/g;

/** The key deciding a tag's identity: trimmed, spaces folded, NFC, Unicode case-folded. */
export function tagNameKey(name: string): string {
  return normalizeTagName(name)
    .normalize('NFC')
    .toLowerCase()
    .replace(FULL_FOLD_PATTERN, (letter) => FULL_FOLDS[letter] ?? letter)
    .normalize('NFC');
}

/** Tag names in the order both sides list them: by key, then by name so that the order is total. */
export function compareTagNames(a: string, b: string): number {
  const keyA = tagNameKey(a);
  const keyB = tagNameKey(b);
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
