import { describe, expect, it } from 'vitest';
import {
  DEFAULT_READING_SETTINGS,
  FONT_SIZES,
  fontSizeOf,
  loadReadingSettings,
  parseReadingSettings,
  READING_SETTINGS_KEY,
  saveReadingSettings,
  stepFont,
} from './reading-settings';

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe('reading settings', () => {
  it('come back as they were saved', () => {
    const storage = memoryStorage();
    saveReadingSettings({ fontStep: 4, theme: 'dark' }, storage);
    expect(loadReadingSettings(storage)).toEqual({ fontStep: 4, theme: 'dark' });
    expect(storage.getItem(READING_SETTINGS_KEY)).not.toBeNull();
  });

  it('fall back to the defaults, field by field, for anything unusable', () => {
    expect(parseReadingSettings(null)).toEqual(DEFAULT_READING_SETTINGS);
    expect(parseReadingSettings('not json')).toEqual(DEFAULT_READING_SETTINGS);
    expect(parseReadingSettings('42')).toEqual(DEFAULT_READING_SETTINGS);
    expect(parseReadingSettings('{"fontStep": 99, "theme": "sepia"}')).toEqual({
      fontStep: FONT_SIZES.length - 1,
      theme: 'light',
    });
    expect(parseReadingSettings('{"fontStep": "big", "theme": "dark"}')).toEqual({
      fontStep: 2,
      theme: 'dark',
    });
  });

  it('step the text size within the available sizes', () => {
    const smallest = { fontStep: 0, theme: 'light' } as const;
    expect(stepFont(smallest, -1).fontStep).toBe(0);
    expect(stepFont(smallest, 1).fontStep).toBe(1);
    const largest = { fontStep: FONT_SIZES.length - 1, theme: 'light' } as const;
    expect(stepFont(largest, 1).fontStep).toBe(FONT_SIZES.length - 1);
    expect(fontSizeOf(largest)).toBe(`${FONT_SIZES[FONT_SIZES.length - 1]}rem`);
  });
});
