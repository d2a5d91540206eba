// The bookmarklet's code and the save window's checks on what a page hands it.
import { describe, expect, it } from 'vitest';
import {
  bookmarkletHref,
  bookmarkletKey,
  bookmarkletSource,
  isOwnBookmarkletKey,
  pageMessageOf,
} from './bookmarklet';

/** localStorage's interface over a Map, for Node. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const URL_SAVED = 'https://news.example/story?id=7';

describe('pageMessageOf', () => {
  it('takes the exact shape for the address the window was opened for', () => {
    expect(
      pageMessageOf({ type: 'lectern:page', url: URL_SAVED, html: '<p>x</p>', key: 'k' }, URL_SAVED),
    ).toEqual({
      type: 'lectern:page',
      url: URL_SAVED,
      html: '<p>x</p>',
      key: 'k',
    });
  });

  it.each([
    ['nothing', null],
    ['a string', 'lectern:page'],
    ['another type', { type: 'lectern:ready', url: URL_SAVED, html: '' }],
    ['another address', { type: 'lectern:page', url: 'https://evil.example/', html: '<p>x</p>' }],
    [
      'html that is not text',
      { type: 'lectern:page', url: URL_SAVED, html: { toString: (): string => '<p>x</p>' } },
    ],
    ['no html', { type: 'lectern:page', url: URL_SAVED }],
  ])('refuses %s', (_name, data) => {
    expect(pageMessageOf(data, URL_SAVED)).toBeNull();
  });
});

describe('the bookmarklet key', () => {
  it('is made once per device and recognised only as itself', () => {
    const storage = memoryStorage();
    const key = bookmarkletKey(storage);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(bookmarkletKey(storage)).toBe(key);
    expect(isOwnBookmarkletKey(key, storage)).toBe(true);
    expect(isOwnBookmarkletKey('guess', storage)).toBe(false);
    expect(isOwnBookmarkletKey(undefined, storage)).toBe(false);
    expect(isOwnBookmarkletKey('', memoryStorage())).toBe(false);
  });
});

describe('the bookmarklet', () => {
  it('is a javascript: link whose code opens /save on Lectern and fetches nothing itself', () => {
    const href = bookmarkletHref('https://lectern.example', 'the-key');
    expect(href.startsWith('javascript:')).toBe(true);
    const code = decodeURIComponent(href.slice('javascript:'.length));
    expect(code).toBe(bookmarkletSource('https://lectern.example', 'the-key').replace(/\n/g, ''));
    expect(code).toContain(`open(L+'/save?url='+encodeURIComponent(u)`);
    expect(code).toContain('e.source!==w||e.origin!==L');
    expect(code).not.toMatch(/fetch\(|XMLHttpRequest|innerHTML/);
    // Valid JavaScript, as the browser will run it.
    expect(() => new Function(code)).not.toThrow();
  });
});
