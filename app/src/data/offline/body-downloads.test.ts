// The bodies a new device fetches are given their search text: the server's when it sent one (the device
// need not make it again), else made from the body as an older server's answer needs. Each call asks for as
// many bodies as fit about one answer at the size of those answered so far.
import { BODIES_ANSWER_BYTES, BODIES_MAX_IDS, htmlToText } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import { bodySizeOf } from '../db/local-store';
import { createAskSize, prepareBodies } from './body-downloads';

describe('prepareBodies', () => {
  it("keeps the server's text, makes it when none came, and gives a missing body none", async () => {
    const html = '<h1>Rhubarb</h1><p>Compote &amp; crumble</p>';
    const [sent, made, none] = await prepareBodies([
      { id: 'a', content: html, text: 'as the server keeps it' },
      { id: 'b', content: html },
      { id: 'c', content: null, text: null },
    ]);
    expect(sent).toMatchObject({ id: 'a', text: 'as the server keeps it' });
    expect(made).toMatchObject({ id: 'b', text: htmlToText(html) });
    expect(made!.text).toBe('Rhubarb\nCompote & crumble');
    expect(none).toMatchObject({ id: 'c', text: '' });
    // What each takes on the device counts the text it stores.
    expect(sent!.size).toBe(bodySizeOf(html, 'as the server keeps it'));
    expect(made!.size).toBe(bodySizeOf(html, htmlToText(html)));
  });
});

describe('createAskSize', () => {
  const bodies = (count: number, chars: number) =>
    Array.from({ length: count }, (_, i) => ({
      id: String(i),
      content: 'h'.repeat(chars / 2),
      text: 't'.repeat(chars / 2),
    }));

  it('asks for two dozen before any size is known, then as many as fit three quarters of an answer', () => {
    const ask = createAskSize();
    expect(ask.next()).toBe(24);
    // Bodies of 50,000 characters with their texts: 31 fit 1.5 MB.
    ask.answered(bodies(24, 50_000));
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
    empty.answered([{ id: 'gone', content: null, text: null }]);
    expect(empty.next()).toBe(BODIES_MAX_IDS);
  });
});
