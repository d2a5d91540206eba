// A search box query and an article's text become the same words on the server and the device: lowercased
// letters and digits, diacritics removed. The split reads Unicode's character classes only where there is
// something not ASCII; it must give exactly the words of reading them everywhere.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchTerms } from './search-terms';

/** The definition: every character read against Unicode's classes. */
function wordsByDefinition(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

describe('searchTerms', () => {
  it('folds case and diacritics, keeps letters and digits of every script, drops the rest', () => {
    expect(searchTerms('Crème BRÛLÉE, 2 ways: it’s “easy”!')).toEqual([
      'creme',
      'brulee',
      '2',
      'ways',
      'it',
      's',
      'easy',
    ]);
    expect(searchTerms('Ünïcode café-au-lait ＡＢＣ１２ İstanbul')).toEqual([
      'unicode',
      'cafe',
      'au',
      'lait',
      'abc12',
      'istanbul',
    ]);
    expect(searchTerms('東京の天気 Δελφοί Москва 𝐁𝐨𝐥𝐝 😀 ok')).toEqual([
      '東京の天気',
      'δελφοι',
      'москва',
      'bold',
      'ok',
    ]);
    expect(searchTerms('"quoted" AND (ops) OR x*')).toEqual(['quoted', 'and', 'ops', 'or', 'x']);
    expect(searchTerms(' \n\t—– ')).toEqual([]);
  });

  it('gives the words of the definition for any text, ASCII or not, mixed in any way', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.constantFrom('é', 'e\u0301', 'İ', 'ß', 'K', 'ﬁ', '’', '\u00a0', '\ud835\udc01', '\ud800', '①', '½'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = pieces.join('');
        expect(searchTerms(text)).toEqual(wordsByDefinition(text));
      }),
      { numRuns: 2_000 },
    );
  });
});
