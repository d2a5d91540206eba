// Each call asks for as many bodies as fit about one answer at the size of those answered so far.
import { BODIES_ANSWER_BYTES, BODIES_MAX_IDS } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { summarize } from './body-answers';
import { createAskSize } from './body-downloads';

describe('createAskSize', () => {
  const bodies = (count: number, chars: number) =>
    summarize({
      bodies: Array.from({ length: count }, (_, i) => ({ id: String(i), content: 'h'.repeat(chars) })),
      unknown: [],
    }).bodies;

  it('asks for four dozen before any size is known, then as many as fit three quarters of an answer', () => {
    const ask = createAskSize();
    expect(ask.next()).toBe(48);
    // Bodies of 50,000 characters: 31 fit 1.5 MB.
    ask.answered(bodies(48, 50_000));
    expect(ask.next()).toBe(Math.floor((BODIES_ANSWER_BYTES * 3) / 4 / 50_000));
    expect(ask.next()).toBe(31);
  });

  it('asks for the most the server takes when the bodies are short notes, and a few when they are long', () => {
    const notes = createAskSize();
    notes.answered(bodies(24, 6_000));
    expect(notes.next()).toBe(BODIES_MAX_IDS);
    const books = createAskSize();
    books.answered(bodies(2, 1_000_000));
    expect(books.next()).toBe(4);
    // An answer with nothing but missing bodies counts them as small, not as nothing at all.
    const empty = createAskSize();
    empty.answered(summarize({ bodies: [{ id: 'gone', content: null }], unknown: [] }).bodies);
    expect(empty.next()).toBe(BODIES_MAX_IDS);
  });
});
