import { READING_WORDS_PER_MINUTE } from '@lectern/shared-schema';

// Chinese and Japanese are written without spaces; each character is counted as half a word, which
// keeps their reading times near what readers of those languages manage.
const UNSPACED_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const UNSPACED_CHARACTERS = new RegExp(UNSPACED_CHARACTER.source, 'gu');
const WORD = /[\p{L}\p{N}]\S*/gu;

export function countWords(text: string): number {
  if (!UNSPACED_CHARACTER.test(text)) return text.match(WORD)?.length ?? 0;
  const unspacedCharacters = text.match(UNSPACED_CHARACTERS)?.length ?? 0;
  const spacedWords = text.replace(UNSPACED_CHARACTERS, ' ').match(WORD)?.length ?? 0;
  return spacedWords + Math.ceil(unspacedCharacters / 2);
}

/** Minutes to read a number of words at READING_WORDS_PER_MINUTE, never below one. */
export function minutesForWords(words: number): number {
  return Math.max(1, Math.round(words / READING_WORDS_PER_MINUTE));
}

/** Minutes to read a text at READING_WORDS_PER_MINUTE, never below one. */
export function readingTimeMinutes(text: string): number {
  return minutesForWords(countWords(text));
}
