import { READING_WORDS_PER_MINUTE } from '@lectern/shared-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords, readingTimeMinutes } from './reading-time';

/** The definition the counting loop must keep: one match of this per word, unspaced characters apart. */
function countByMatching(text: string): number {
  const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
  const word = /[\p{L}\p{N}]\S*/gu;
  const unspacedCount = text.match(unspaced)?.length ?? 0;
  return (text.replace(unspaced, ' ').match(word)?.length ?? 0) + Math.ceil(unspacedCount / 2);
}

describe('counting words for reading time', () => {
  it('counts runs of non-space characters that hold a letter or a digit', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   \n\t ')).toBe(0);
    expect(countWords('The quick brown fox')).toBe(4);
    expect(countWords('  — -- ... 42 times, e-mail “quoted”  ')).toBe(4);
    expect(countWords('naïve café Ærø straße')).toBe(4);
    expect(countWords('Привет мир')).toBe(2);
    expect(countWords('non\u00a0breaking\u2003spaces')).toBe(3);
    expect(countWords('emoji 🙂 alone and🙂joined')).toBe(3);
  });

  it('counts each Chinese or Japanese character as half a word, splitting the run it sits in', () => {
    expect(countWords('我爱读书')).toBe(2);
    expect(countWords('東京は大きい')).toBe(3);
    expect(countWords('Lectern是好的app')).toBe(4); // Lectern, app, and three characters rounded up
  });

  it('agrees with the matching definition on any text', () => {
    const pieces = fc.constantFrom(
      'word',
      'W0rd',
      '42',
      ' ',
      '\n',
      '\t',
      '\u00a0',
      '\u3000',
      '—',
      '.',
      '-',
      'é',
      'ß',
      'Ж',
      '中',
      '文',
      'ひ',
      'カ',
      '🙂',
      '𝒜',
      '\u200b',
      '’',
      'x',
      '\ufeff',
      '\u2028',
      ...['\u1680', '\u2009', '\u202f', '\u205f', '\u0085', '\u180e', '\u2e80', 'ㄱ', '〆'],
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        expect(countWords(text)).toBe(countByMatching(text));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        expect(countWords(text)).toBe(countByMatching(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives a minute at least, then one a READING_WORDS_PER_MINUTE words', () => {
    expect(readingTimeMinutes('one')).toBe(1);
    expect(readingTimeMinutes('word '.repeat(READING_WORDS_PER_MINUTE * 10))).toBe(10);
  });
});
