// A search box query and an article's text become the same words on the server and the device: lowercased
// letters and digits, diacritics removed. The split reads Unicode's character classes only where there is
// something not ASCII; it must give exactly the words of reading them everywhere.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsEveryTerm, isPrefixTerm, searchTerms } from './search-terms';

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

/** The definition: the text's words hold each term, the last as the start of one when it is a prefix. */
function holdsByDefinition(text: string, terms: readonly string[]): boolean {
  const words = searchTerms(text);
  return (
    terms.length > 0 &&
    terms.every((term, index) =>
      isPrefixTerm(term, index, terms.length)
        ? words.some((word) => word.startsWith(term))
        : words.includes(term),
    )
  );
}

describe('holdsEveryTerm', () => {
  it('holds words as words, the last as a prefix, whatever the case and accents', () => {
    expect(holdsEveryTerm('The Lighthouse Keepers', searchTerms('lighthouse keep'))).toBe(true);
    expect(holdsEveryTerm('The Lighthouse Keepers', searchTerms('keep lighthouse'))).toBe(false);
    expect(holdsEveryTerm('Harbourmasters', searchTerms('harbour'))).toBe(true);
    expect(holdsEveryTerm('Harbourmasters', searchTerms('harbour keeper'))).toBe(false);
    expect(holdsEveryTerm('harbourmaster and keeper', searchTerms('harbour keeper'))).toBe(false);
    expect(holdsEveryTerm('Éléphant de mer', searchTerms('ELEPHANT de'))).toBe(true);
    expect(holdsEveryTerm('https://example.org/garden-path', searchTerms('garden pat'))).toBe(true);
    expect(holdsEveryTerm('東京の天気 Δελφοί', searchTerms('δελφ'))).toBe(true);
    expect(holdsEveryTerm('anything', [])).toBe(false);
    // A word cut inside a surrogate pair is no word of the text, though it begins one.
    expect(holdsEveryTerm('ab-abc\u{10000}', ['abc\ud800', 'ab'], Infinity)).toBe(false);
    expect(holdsEveryTerm('ab-abc\u{10000}', ['ab', 'abc\ud800'], Infinity)).toBe(true);
  });

  it('answers as the words of the text do, for any text and words taken from it or not', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.constantFrom(
        'é',
        'e\u0301',
        'İ',
        'ß',
        'K',
        'ﬁ',
        '’',
        '\u00a0',
        '\ud835\udc01',
        '①',
        'ab',
        'ab-abc',
        ' ',
      ),
    );
    const text = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(text, text, fc.nat(), fc.nat(3), (body, query, start, cut) => {
        const own = searchTerms(body);
        // Words of the text itself, the last maybe cut short (a prefix being typed), and words of another.
        const taken = own.slice(start % (own.length + 1), (start % (own.length + 1)) + 2);
        const last = taken.at(-1);
        if (last !== undefined && last.length > cut + 2)
          taken[taken.length - 1] = last.slice(0, last.length - cut);
        for (const terms of [taken, searchTerms(query), [...taken, ...searchTerms(query)]]) {
          const expected = holdsByDefinition(body, terms);
          // Both ways: looking for the words in the text, and splitting it into words.
          expect(holdsEveryTerm(body, terms, Infinity)).toBe(expected);
          expect(holdsEveryTerm(body, terms, 0)).toBe(expected);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('splits a field crafted against the search into words once, rather than looking for each word', () => {
    // Words overlapping in a run of letters: looked for one by one, each would be found at every letter.
    const terms = searchTerms(Array.from({ length: 29 }, (_, i) => 'a'.repeat(i + 2)).join(' '));
    const field = `${'a'.repeat(4_000)} ${terms.join(' ')}`;
    const started = Date.now();
    // A window of 500 matches, five fields each: about 9 s when every word was looked for.
    for (let row = 0; row < 2_500; row += 1) expect(holdsEveryTerm(field, terms)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(holdsEveryTerm(`${'a'.repeat(4_000)} aa`, terms)).toBe(false);
  });
});
