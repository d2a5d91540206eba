import { describe, expect, it } from 'vitest';
import { emptyToNull, truncateAtWord } from './text-fields';

describe('emptyToNull', () => {
  it('trims the text', () => {
    expect(emptyToNull('  For Saturday \n')).toBe('For Saturday');
  });

  it('is null for missing, empty and blank text', () => {
    expect(emptyToNull(undefined)).toBeNull();
    expect(emptyToNull(null)).toBeNull();
    expect(emptyToNull('')).toBeNull();
    expect(emptyToNull(' \t\n ')).toBeNull();
  });
});

describe('truncateAtWord', () => {
  it('leaves a text that fits alone', () => {
    expect(truncateAtWord('short enough', 12)).toBe('short enough');
  });

  it('cuts at the last space within the room and adds an ellipsis', () => {
    expect(truncateAtWord('one two three four', 10)).toBe('one two…');
  });

  it('cuts inside a word when the last space leaves less than half the room', () => {
    expect(truncateAtWord('a verylongwordindeed', 10)).toBe('a ver…');
    expect(truncateAtWord('abcdefghijkl', 10)).toBe('abcde…');
  });
});
