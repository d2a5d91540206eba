// How a search box query becomes words, the same way on the server (SQLite FTS5, unicode61 tokenizer
// with diacritics removed) and in the app's offline search, so both find the same articles.

/** Any character outside ASCII (UTF-16 code units, so both halves of a surrogate pair too). */
const NOT_ASCII = /[\u0080-\uffff]/;
const NOT_ASCII_RUNS = /[\u0080-\uffff]+/g;
/**
 * Runs of characters that may be words or hold some: ASCII letters and digits, and anything not ASCII. A
 * word never spans two runs (what parts them is ASCII and no letter or digit).
 */
const MAYBE_WORDS = /[a-z0-9\u0080-\uffff]+/g;
const WORDS = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

/**
 * Lowercased words of letters and digits, diacritics removed; punctuation and operators are dropped.
 * Unicode's character classes are read only where there is something not ASCII: a body of mostly ASCII
 * text (a device indexes hundreds of megabytes of them) is split three times faster than by matching
 * every character against them, with the same words.
 */
export function searchTerms(query: string): string[] {
  const folded = (
    NOT_ASCII.test(query)
      ? query.normalize('NFKD').replace(NOT_ASCII_RUNS, (run) => run.replace(MARKS, ''))
      : query
  ).toLowerCase();
  const terms: string[] = [];
  for (const run of folded.match(MAYBE_WORDS) ?? []) {
    if (!NOT_ASCII.test(run)) terms.push(run);
    else for (const word of run.match(WORDS) ?? []) terms.push(word);
  }
  return terms;
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
