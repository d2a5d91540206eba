import { describe, expect, it } from 'vitest';
import { sharedUrlOf } from './shared-url';

const shared = (fields: Record<string, string>) => sharedUrlOf(new URLSearchParams(fields));

describe('sharedUrlOf', () => {
  it('takes the url field first', () => {
    expect(shared({ url: 'https://example.com/a', text: 'https://example.com/b' })).toBe(
      'https://example.com/a',
    );
  });

  it('finds the link inside shared text, without the sentence around it', () => {
    expect(shared({ title: 'Great read', text: 'Look at this: https://example.com/post?id=3.' })).toBe(
      'https://example.com/post?id=3',
    );
  });

  it('answers null when nothing shared is a web address', () => {
    expect(shared({ text: 'just words', title: 'ftp://example.com' })).toBeNull();
    expect(shared({})).toBeNull();
  });
});
