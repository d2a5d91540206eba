import { describe, expect, it } from 'vitest';
import { compareTagNames, tagNameKey } from './tag-identity';

describe('tagNameKey', () => {
  it.each([
    ['RÉSUMÉ', 'résumé'],
    ['Re\u0301sume\u0301', 'résumé'], // decomposed accents are the same letters
    ['Straße', 'STRASSE'],
    ['GROẞE', 'große'],
    ['ΟΔΟΣ', 'οδος'],
    ['ﬁle', 'FILE'],
    ['  Long   read ', 'long read'],
    ['📚 Books', '📚 BOOKS'],
    ['ÇAĞ', 'çağ'],
  ])('makes %j and %j one tag', (a, b) => {
    expect(tagNameKey(a)).toBe(tagNameKey(b));
  });

  it.each([
    ['İstanbul', 'istanbul'], // İ folds to i with a dot above, not to i
    ['ıstanbul', 'istanbul'], // dotless ı is its own letter
    ['résumé', 'resume'],
    ['📚', '📖'],
  ])('keeps %j and %j apart', (a, b) => {
    expect(tagNameKey(a)).not.toBe(tagNameKey(b));
  });

  it('orders by key as SQLite orders text (code points), the same on every side', () => {
    expect(['zebra', 'Äpfel', 'apple', 'Straße', 'STRASSE'].sort(compareTagNames)).toEqual([
      'apple',
      'STRASSE',
      'Straße',
      'zebra',
      'Äpfel',
    ]);
  });
});
