import { READING_WORDS_PER_MINUTE } from '@lectern/shared-schema';

// A word is a run of non-space characters with a letter or a digit in it (what /[\p{L}\p{N}]\S*/gu
// matches once per run). Chinese and Japanese are written without spaces; each of their characters is
// counted as half a word and splits the run it sits in, which keeps their reading times near what readers
// of those languages manage.
//
// Counted in one pass over the characters rather than by matching: matching built an array of every word,
// a third of the save pipeline's own cost on a long article (issue 16's extraction figure).
// Non-ASCII letters and scripts are judged by sticky expressions tested where they stand (no string made
// per character); Chinese and Japanese scripts all lie at U+2E80 and above.
const UNSPACED_AT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/uy;
const FIRST_UNSPACED = 0x2e80;
const LETTER_OR_DIGIT_AT = /[\p{L}\p{N}]/uy;

/** JavaScript's \s (WhiteSpace and LineTerminator), by code unit: all of it lies in the BMP. */
const isSpace = (code: number) =>
  code === 32 ||
  (code >= 9 && code <= 13) ||
  (code >= 128 &&
    (code === 0xa0 ||
      code === 0x1680 ||
      (code >= 0x2000 && code <= 0x200a) ||
      code === 0x2028 ||
      code === 0x2029 ||
      code === 0x202f ||
      code === 0x205f ||
      code === 0x3000 ||
      code === 0xfeff));
const isAsciiLetterOrDigit = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

function matchesAt(pattern: RegExp, text: string, at: number): boolean {
  pattern.lastIndex = at;
  return pattern.test(text);
}

export function countWords(text: string): number {
  let words = 0;
  let unspaced = 0;
  let inRun = false; // inside a run of non-space characters
  let runCounted = false; // the run has had its letter or digit
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const ascii = code < 128;
    const at = i;
    if (!ascii && text.codePointAt(i)! > 0xffff) i += 1; // the pair's second half
    if (!ascii && code >= FIRST_UNSPACED && matchesAt(UNSPACED_AT, text, at)) {
      unspaced += 1;
      inRun = false; // stands alone, like a space between the words around it
      continue;
    }
    if (isSpace(code)) {
      inRun = false;
      continue;
    }
    if (!inRun) {
      inRun = true;
      runCounted = false;
    }
    if (!runCounted && (ascii ? isAsciiLetterOrDigit(code) : matchesAt(LETTER_OR_DIGIT_AT, text, at))) {
      words += 1;
      runCounted = true;
    }
  }
  return words + Math.ceil(unspaced / 2);
}

/** Minutes to read a number of words at READING_WORDS_PER_MINUTE, never below one. */
export function minutesForWords(words: number): number {
  return Math.max(1, Math.round(words / READING_WORDS_PER_MINUTE));
}

/** Minutes to read a text at READING_WORDS_PER_MINUTE, never below one. */
export function readingTimeMinutes(text: string): number {
  return minutesForWords(countWords(text));
}
