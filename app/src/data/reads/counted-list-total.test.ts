import { describe, expect, it } from 'vitest';
import { countedListTotal } from './counted-list-total';

describe('a list by the counts', () => {
  const counts = { total: 10, unread: 4, archived: 3 };

  it('is the articles not archived for All, by their read flag for Unread and Read, the archived for Archived', () => {
    expect(countedListTotal({ archived: false }, counts)).toBe(7);
    expect(countedListTotal({ archived: false, is_read: false }, counts)).toBe(4);
    expect(countedListTotal({ archived: false, is_read: true }, counts)).toBe(3);
    expect(countedListTotal({ archived: true }, counts)).toBe(3);
  });

  it('is not told for a tag, Favorites, or the archive by its read flag', () => {
    expect(countedListTotal({ archived: false, tag_name: 'News' }, counts)).toBeUndefined();
    expect(countedListTotal({ archived: false, favorite: true }, counts)).toBeUndefined();
    expect(countedListTotal({ archived: true, is_read: false }, counts)).toBeUndefined();
  });
});
