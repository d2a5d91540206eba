import fc from 'fast-check';
import { searchTerms } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { isPrefixTerm } from '@lectern/shared-schema';
import { FREEZE_POSTINGS, partsOf, TermIndex, type TermIndexSnapshot } from './term-index';

function indexOf(docs: Record<string, string>) {
  const index = new TermIndex();
  for (const [id, text] of Object.entries(docs)) index.set(id, [{ text, weight: 1 }], text);
  return index;
}

describe('TermIndex', () => {
  it('needs every word, the last one also as a prefix from two letters', () => {
    const index = indexOf({ a: 'Winter gardening guide', b: 'Garden tools', c: 'Winter tyres' });
    expect(index.search('winter').sort()).toEqual(['a', 'c']);
    expect(index.search('garden').sort()).toEqual(['a', 'b']);
    expect(index.search('garden winter')).toEqual([]);
    expect(index.search('winter garden')).toEqual(['a']);
    expect(index.search('g')).toEqual([]);
    expect(index.search('Zürich café')).toEqual([]);
    expect(index.search('  ')).toEqual([]);
  });

  it('folds case and diacritics like the server', () => {
    const index = indexOf({ z: 'Café culture in Zürich' });
    expect(index.search('CAFE zuri')).toEqual(['z']);
  });

  it('ranks by weighted occurrences', () => {
    const index = new TermIndex();
    index.set('body', [{ text: 'saturn', weight: 1 }], '1');
    index.set('title', [{ text: 'saturn', weight: 10 }], '2');
    expect(index.search('saturn')).toEqual(['title', 'body']);
  });

  it('replaces and removes documents', () => {
    const index = indexOf({ a: 'old words' });
    index.set('a', [{ text: 'new words', weight: 1 }], 'v2');
    expect(index.search('old')).toEqual([]);
    expect(index.search('new')).toEqual(['a']);
    index.remove('a');
    expect(index.search('words')).toEqual([]);
    expect(index.size).toBe(0);
  });

  it('keeps answering after dropping many removed documents from its postings', () => {
    const index = indexOf({ keep: 'kale frost' });
    for (let i = 0; i < 1500; i += 1) {
      index.set(`tmp${i}`, [{ text: 'kale front', weight: 1 }], String(i));
      index.remove(`tmp${i}`);
    }
    expect(index.search('kale fro')).toEqual(['keep']);
    expect(index.search('front')).toEqual([]);
  });

  it('answers the same once written out and read back, and goes on taking changes after', () => {
    const index = indexOf({ a: 'kale frost', b: 'kaleidoscope front', c: 'zest' });
    index.remove('c');
    const restored = TermIndex.fromSnapshot(structuredClone(index.snapshot()));
    expect(restored.size).toBe(2);
    expect(restored.search('kale')).toEqual(index.search('kale'));
    expect(restored.search('kal fro')).toEqual(index.search('kal fro'));
    expect(restored.search('zest')).toEqual([]);
    restored.set('a', [{ text: 'new words', weight: 1 }], 'v2');
    restored.set('d', [{ text: 'kale salad', weight: 1 }], 'v1');
    // 'a' no longer says kale; the last word is also a prefix, so 'kaleidoscope' counts.
    expect(restored.search('kale').sort()).toEqual(['b', 'd']);
    expect(restored.search('kale salad')).toEqual(['d']);
    expect(restored.search('new')).toEqual(['a']);
    // The same signature again indexes nothing: the restored index remembers each document's version.
    restored.set('b', [{ text: 'other', weight: 1 }], 'kaleidoscope front');
    expect(restored.search('kaleidoscope')).toEqual(['b']);
  });

  it('stores narrow arrays, keeps fractional or large scores exact, and reads an index stored before', () => {
    const index = indexOf({ a: 'kale frost', b: 'kaleidoscope front' });
    const stored = index.snapshot();
    expect(stored.docs).toBeInstanceOf(Uint16Array);
    expect(stored.scores).toBeInstanceOf(Uint8Array);
    expect(stored.signatures).toBeInstanceOf(Float64Array);
    const weighted = new TermIndex();
    weighted.set('light', [{ text: 'comet', weight: 0.5 }], '1');
    weighted.set('heavy', [{ text: 'comet', weight: 300 }], '2');
    expect(weighted.snapshot().scores).toBeInstanceOf(Float32Array);
    expect(TermIndex.fromSnapshot(weighted.snapshot()).search('comet')).toEqual(['heavy', 'light']);
    // Whole scores over 255 (a word said hundreds of times in a long read) in 16 bits, frozen or merged.
    const counted = new TermIndex(2, 1);
    counted.set('often', [{ text: 'comet '.repeat(300), weight: 1 }], '1');
    counted.set('seldom', [{ text: 'comet tail', weight: 1 }], '2');
    counted.set('most', [{ text: 'comet '.repeat(900), weight: 1 }], '3');
    while (counted.tidy(Infinity));
    expect(counted.snapshot().scores).toBeInstanceOf(Uint16Array);
    expect(TermIndex.fromSnapshot(counted.snapshot()).search('comet')).toEqual(['most', 'often', 'seldom']);
    // An index stored by the version before: wide arrays, the signatures themselves.
    const older = TermIndex.fromSnapshot({
      ...stored,
      docs: Uint32Array.from(stored.docs),
      scores: Float32Array.from(stored.scores),
      signatures: ['kale frost', 'kaleidoscope front'],
    });
    expect(older.search('kal fro')).toEqual(index.search('kal fro'));
    // Its signatures are still recognised: the same version again indexes nothing.
    expect(older.set('a', [{ text: 'other', weight: 1 }], 'kale frost')).toBe(false);
    expect(older.set('a', [{ text: 'other', weight: 1 }], 'kale frost, edited')).toBe(true);
  });
  it('answers what a plain scan of the same rules answers, through many replacements', () => {
    const word = fc.constantFrom('kale', 'kaleidoscope', 'ka', 'k', 'frost', 'front', 'fro', 'zest');
    const text = fc.array(word, { maxLength: 6 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 30 }), text), { maxLength: 60 }),
        fc.array(word, { minLength: 1, maxLength: 3 }),
        fc.nat({ max: 60 }),
        // Postings frozen into segments every few documents, or as the app does.
        fc.constantFrom(1, 2, 5, FREEZE_POSTINGS),
        // Segments merged never, a slice of a posting or two between writes, or whole between writes.
        fc.constantFrom('never', 'a slice', 'whole'),
        (writes, query, reloadAt, freezeAfter, merges) => {
          let index = new TermIndex(freezeAfter, 2);
          const docs = new Map<string, string>();
          writes.forEach(([n, body], version) => {
            // Written out and read back at some point, as a reload does.
            if (version === reloadAt) index = TermIndex.fromSnapshot(index.snapshot(), freezeAfter, 2);
            if (merges === 'a slice') index.tidy(0);
            if (merges === 'whole') while (index.tidy(Infinity));
            const id = `d${n % 12}`;
            if (n > 26) {
              index.remove(id);
              docs.delete(id);
            } else {
              index.set(id, [{ text: body, weight: 1 }], String(version));
              docs.set(id, body);
            }
          });
          const terms = searchTerms(query.join(' '));
          const expected = [...docs]
            .filter(([, body]) => {
              const words = searchTerms(body);
              return terms.every((term, i) =>
                words.some((w) => w === term || (isPrefixTerm(term, i, terms.length) && w.startsWith(term))),
              );
            })
            .map(([id]) => id)
            .sort();
          expect(index.search(query.join(' ')).sort()).toEqual(expected);
        },
      ),
    );
  });

  it('freezes its postings into a few segments as it grows, and answers as one that never froze, in order', () => {
    const words = ['harvest', 'orchard', 'pear', 'plum', 'quince', 'rhubarb', 'sorrel', 'turnip'];
    const plain = new TermIndex(Infinity);
    // Frozen every 40 postings, merged three postings at a time between writes.
    const frozen = new TermIndex(40, 3);
    for (let n = 0; n < 400; n += 1) {
      // Each document a few words, some of them again and again: scores of 1 to 9.
      const text = Array.from({ length: 1 + (n % 9) }, (_, k) => words[(n * 7 + k * (n % 3)) % words.length]);
      const fields = [
        { text: text.join(' '), weight: 1 },
        { text: `doc${n}`, weight: 10 },
      ];
      plain.set(`d${n}`, fields, String(n));
      frozen.set(`d${n}`, fields, String(n));
      frozen.tidy(0);
      if (n % 13 === 5) {
        plain.remove(`d${n - 3}`);
        frozen.remove(`d${n - 3}`);
      }
    }
    for (const query of [...words, 'pe', 'or', 'doc1', 'doc39', 'quince rhu', 'plum pear turnip'])
      expect(frozen.search(query)).toEqual(plain.search(query));
    expect(frozen.snapshot()).toEqual(plain.snapshot());
  });

  it('writes itself out a slice at a time as it was when asked, whatever it takes in or drops meanwhile', () => {
    const word = fc.constantFrom('kale', 'kaleidoscope', 'frost', 'front', 'zest', 'pear');
    const text = fc.array(word, { maxLength: 6 }).map((words) => words.join(' '));
    const writes = fc.array(fc.tuple(fc.nat({ max: 30 }), text), { maxLength: 40 });
    fc.assert(
      fc.property(
        writes,
        writes,
        fc.constantFrom(1, 2, 5, FREEZE_POSTINGS),
        fc.constantFrom('never', 'a slice', 'whole'),
        (before, during, freezeAfter, merges) => {
          const index = new TermIndex(freezeAfter, 2);
          const write = ([n, body]: [number, string], version: string) => {
            if (n > 24) index.remove(`d${n % 12}`);
            // Now and then a weight that needs wider scores than the ones before.
            else index.set(`d${n % 12}`, [{ text: body, weight: n % 7 === 0 ? 300 : 1 + (n % 3) }], version);
          };
          before.forEach((change, version) => write(change, `b${version}`));
          const expected = structuredClone(index.snapshot());
          const steps = index.snapshotSteps();
          let step: IteratorResult<void, TermIndexSnapshot> | undefined;
          // Before its first slice and between the next ones: new versions, removals, freezes, merges.
          during.forEach((change, version) => {
            write(change, `d${version}`);
            if (merges === 'a slice') index.tidy(0);
            if (merges === 'whole') while (index.tidy(Infinity));
            if (!step?.done) step = steps.next();
          });
          while (!step?.done) step = steps.next();
          expect(step.value).toEqual(expected);
        },
      ),
    );
  });

  it('writes itself out as it was when asked, though it drops its removed documents meanwhile', () => {
    const index = new TermIndex(5, 2);
    for (let n = 0; n < 40; n += 1) index.set(`d${n}`, [{ text: `pear plum n${n}`, weight: 1 }], 'first');
    const expected = structuredClone(index.snapshot());
    const steps = index.snapshotSteps();
    steps.next();
    // More removals than documents: the index drops them from its postings, numbering the rest anew.
    for (let n = 0; n < 1_100; n += 1) {
      index.set('passing', [{ text: `pear n${n}`, weight: 1 }], String(n));
      index.remove('passing');
    }
    index.remove('d3');
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect(step.value).toEqual(expected);
    expect(TermIndex.fromSnapshot(step.value).search('n3 plum')).toEqual(['d3']);
    expect(index.search('n3 plum')).toEqual([]);
  });

  it('cut into parts by ranges of terms and read back as its segments, answers as it did', () => {
    const word = fc.constantFrom('kale', 'kaleidoscope', 'frost', 'front', 'zest', 'pear', 'café');
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { maxLength: 6 }), { maxLength: 30 }),
        fc.constantFrom(1, 2, 7, 1_000),
        fc.constantFrom(1, 0.25),
        (bodies, size, weight) => {
          const index = new TermIndex(3);
          bodies.forEach((words, n) => index.set(`d${n}`, [{ text: words.join(' '), weight }], String(n)));
          const snapshot = index.snapshot();
          const parts = [...partsOf(snapshot, size)];
          for (const part of parts) expect(part.offsets.at(-1)).toBe(part.docs.length);
          const back = TermIndex.fromParts(snapshot, parts, 3);
          // Merged again, the parts are the postings cut; read as they are, they answer as the index did.
          expect(back.snapshot()).toEqual(snapshot);
          for (const query of ['kale', 'ka', 'fro', 'front zest', 'cafe', 'pear k'])
            expect(back.search(query)).toEqual(index.search(query));
          // And they go on taking changes, merged with what comes after them.
          for (const changed of [index, back]) {
            changed.set('d0', [{ text: 'zest zest', weight }], 'again');
            changed.set('new', [{ text: 'kale front', weight }], 'new');
            while (changed.tidy(Infinity));
          }
          for (const query of ['zest', 'kale fro', 'ka'])
            expect(back.search(query)).toEqual(index.search(query));
        },
      ),
    );
  });

  it('answers the first `limit` of its whole answer, in its order, when asked for no more', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom('pear', 'plum', 'peach', 'fig'), { maxLength: 8 }), {
          maxLength: 80,
        }),
        fc.constantFrom('pear', 'p', 'plum fig', 'pe'),
        fc.nat({ max: 90 }),
        (bodies, query, limit) => {
          const index = new TermIndex();
          // Repeated words rank a document higher; equal scores are many, ordered newest first.
          bodies.forEach((words, n) => index.set(`d${n}`, [{ text: words.join(' '), weight: 1 }], String(n)));
          expect(index.search(query, limit)).toEqual(index.search(query).slice(0, limit));
        },
      ),
    );
  });
});
