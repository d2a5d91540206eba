import { READING_WORDS_PER_MINUTE } from '@lectern/shared-schema';

// A word is a run of non-space characters with a letter or a digit in it (what /[\p{L}\p{N}]\S*/gu
// matches once per run). Chinese and Japanese are written without spaces; each of their characters is
// counted as half a word and splits the run it sits in, which keeps their reading times near what readers
// of those languages manage.
//
// Counted in one pass over the characters rather than by matching: matching built an array of every word,
// a third of the save pipeline's own cost on a long article (issue 16's extraction figure).
const UNSPACED_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const SPACE = /\s/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

const isAsciiSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);
const isAsciiLetterOrDigit = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

export function countWords(text: string): number {
  let words = 0;
  let unspaced = 0;
  let inRun = false; // inside a run of non-space characters
  let runCounted = false; // the run has had its letter or digit
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    let space: boolean;
    let letterOrDigit: boolean;
    if (code < 128) {
      space = isAsciiSpace(code);
      letterOrDigit = !space && isAsciiLetterOrDigit(code);
    } else {
      const codePoint = text.codePointAt(i)!;
      const character = String.fromCodePoint(codePoint);
      if (codePoint > 0xffff) i += 1;
      if (UNSPACED_CHARACTER.test(character)) {
        unspaced += 1;
        inRun = false; // stands alone, like a space between the words around it
        continue;
      }
      space = SPACE.test(character);
      letterOrDigit = !space && LETTER_OR_DIGIT.test(character);
    }
    if (space) {
      inRun = false;
      continue;
    }
    if (!inRun) {
      inRun = true;
      runCounted = false;
    }
    if (letterOrDigit && !runCounted) {
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
