// How a search box query becomes words, the same way on the server (SQLite FTS5, unicode61 tokenizer
// with diacritics removed) and in the app's offline search, so both find the same articles.

/** Lowercased words of letters and digits, diacritics removed; punctuation and operators are dropped. */
export function searchTerms(query: string): string[] {
  const folded = query
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Whether a query word also matches as a prefix: the last word, while it is being typed. A single letter
 * would expand to a large part of the vocabulary, so it matches as a word.
 */
export function isPrefixTerm(term: string, index: number, count: number): boolean {
  return index === count - 1 && term.length >= 2;
}

/**
 * An FTS5 MATCH expression: every word must occur, the last one (of two letters or more) as a prefix so that results come as the
 * user types. Each word is quoted, so no input can be read as FTS syntax. Null when there is no word.
 */
export function ftsMatchExpression(query: string): string | null {
  const terms = searchTerms(query);
  if (terms.length === 0) return null;
  return terms
    .map((term, index) => `${ftsWord(term)}${isPrefixTerm(term, index, terms.length) ? '*' : ''}`)
    .join(' ');
}

/** A word quoted for an FTS5 MATCH expression: read as the word itself, never as syntax. */
export function ftsWord(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}
