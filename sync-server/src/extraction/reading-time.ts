import { READING_WORDS_PER_MINUTE } from '@lectern/shared-schema';

// Chinese and Japanese are written without spaces; each character is counted as half a word, which
// keeps their reading times near what readers of those languages manage.
const UNSPACED_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

export function countWords(text: string): number {
  const unspacedCharacters = text.match(UNSPACED_CHARACTER)?.length ?? 0;
  const spacedWords = text.replace(UNSPACED_CHARACTER, ' ').match(/[\p{L}\p{N}][^\s]*/gu)?.length ?? 0;
  return spacedWords + Math.ceil(unspacedCharacters / 2);
}

/** Minutes to read a text at READING_WORDS_PER_MINUTE, never below one. */
export function readingTimeMinutes(text: string): number {
  return Math.max(1, Math.round(countWords(text) / READING_WORDS_PER_MINUTE));
}
