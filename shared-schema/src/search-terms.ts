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
 * Text as search reads it: lowercased, diacritics removed (letters decomposed, their marks dropped), so
 * its words are runs of ASCII letters and digits and of Unicode letters and numbers.
 */
function foldedForSearch(text: string): string {
  return (
    NOT_ASCII.test(text)
      ? text.normalize('NFKD').replace(NOT_ASCII_RUNS, (run) => run.replace(MARKS, ''))
      : text
  ).toLowerCase();
}

/**
 * Lowercased words of letters and digits, diacritics removed; punctuation and operators are dropped.
 * Unicode's character classes are read only where there is something not ASCII: a body of mostly ASCII
 * text (a device indexes hundreds of megabytes of them) is split three times faster than by matching
 * every character against them, with the same words.
 */
export function searchTerms(query: string): string[] {
  return wordsOfFolded(foldedForSearch(query));
}

/** The words of text folded by foldedForSearch. */
function wordsOfFolded(folded: string): string[] {
  const terms: string[] = [];
  for (const run of folded.match(MAYBE_WORDS) ?? []) {
    if (!NOT_ASCII.test(run)) terms.push(run);
    else for (const word of run.match(WORDS) ?? []) terms.push(word);
  }
  return terms;
}

/** One character of a word: an ASCII letter or digit, or a Unicode letter or number. */
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;

/** Whether the character at `index` of folded text (its whole code point) is part of a word. */
function isWordCharacterAt(folded: string, index: number): boolean {
  const code = folded.charCodeAt(index);
  if (Number.isNaN(code)) return false;
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
  const point = folded.codePointAt(index) ?? code;
  return WORD_CHARACTER.test(String.fromCodePoint(point));
}

/** Whether the character before `index` of folded text is part of a word (a surrogate pair read whole). */
function isWordCharacterBefore(folded: string, index: number): boolean {
  if (index === 0) return false;
  const low = folded.charCodeAt(index - 1);
  const pair = low >= 0xdc00 && low <= 0xdfff && index >= 2;
  return isWordCharacterAt(folded, pair ? index - 2 : index - 1);
}

/** Whether `index` of the text falls between the two halves of a surrogate pair: no word begins or ends there. */
function splitsPair(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  const at = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && at >= 0xdc00 && at <= 0xdfff;
}

/** Whether folded text has `term` as one of its words, or as the start of one with `asPrefix`. */
function holdsTerm(folded: string, term: string, asPrefix: boolean): boolean {
  for (let at = folded.indexOf(term); at >= 0; at = folded.indexOf(term, at + 1)) {
    if (splitsPair(folded, at) || isWordCharacterBefore(folded, at)) continue;
    const end = at + term.length;
    if (asPrefix || !(splitsPair(folded, end) || isWordCharacterAt(folded, end))) return true;
  }
  return false;
}

/**
 * The most work holdsEveryTerm does by looking for the words in the text (the text's length times the
 * words' letters): beyond it, the text is split into words once. Looking for them costs at most that many
 * character comparisons, however the words overlap in the text ("aa", "aaa"… in a run of a's) and however
 * often they occur; splitting costs the text's length. A field of ordinary length is looked in.
 */
const SEARCH_SCAN_BUDGET = 20_000;

/**
 * Whether `text` holds every one of a query's words (searchTerms' words of the query), the last as a prefix
 * when isPrefixTerm says so: what searchTerms would find in it. The server ranks a search's matches by the
 * fields holding them, up to hundreds a search: in a field of ordinary length the words are looked for
 * without splitting the text into words (a field without them, most of them, costs an indexOf), and a
 * long field, or a long query, is split once, so a crafted field costs its length, not its length times
 * the words'. `scanBudget`: SEARCH_SCAN_BUDGET (tests pass 0 or Infinity to take one way or the other).
 */
export function holdsEveryTerm(
  text: string,
  terms: readonly string[],
  scanBudget = SEARCH_SCAN_BUDGET,
): boolean {
  if (terms.length === 0) return false;
  const folded = foldedForSearch(text);
  let letters = 0;
  for (const term of terms) letters += term.length;
  const prefix = (index: number) => isPrefixTerm(terms[index]!, index, terms.length);
  if (folded.length * letters <= scanBudget)
    return terms.every((term, index) => holdsTerm(folded, term, prefix(index)));
  const words = wordsOfFolded(folded);
  const present = new Set(words);
  return terms.every(
    (term, index) => present.has(term) || (prefix(index) && words.some((word) => word.startsWith(term))),
  );
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
