// How the reader looks on this device: text size and light or dark. A device preference (a phone and a
// desktop want different sizes), so it lives in localStorage rather than in synced data.

export const READING_THEMES = ['light', 'dark'] as const;
export type ReadingTheme = (typeof READING_THEMES)[number];

/** Text sizes in rem, smallest first; the reader steps through them. */
export const FONT_SIZES = [0.9375, 1.0625, 1.1875, 1.3125, 1.5] as const;

export interface ReadingSettings {
  /** Index into FONT_SIZES. */
  fontStep: number;
  theme: ReadingTheme;
}

export const DEFAULT_READING_SETTINGS: ReadingSettings = { fontStep: 2, theme: 'light' };
export const READING_SETTINGS_KEY = 'lectern-reading-settings';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

function clampStep(step: number): number {
  return Math.min(FONT_SIZES.length - 1, Math.max(0, Math.round(step)));
}

/** Whatever is stored, a valid setting comes out (an old or hand-edited value falls back per field). */
export function parseReadingSettings(stored: string | null): ReadingSettings {
  if (!stored) return DEFAULT_READING_SETTINGS;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return DEFAULT_READING_SETTINGS;
  }
  if (typeof value !== 'object' || value === null) return DEFAULT_READING_SETTINGS;
  const { fontStep, theme } = value as Partial<Record<keyof ReadingSettings, unknown>>;
  return {
    fontStep: typeof fontStep === 'number' && Number.isFinite(fontStep) ? clampStep(fontStep) : 2,
    theme: READING_THEMES.find((known) => known === theme) ?? 'light',
  };
}

export function loadReadingSettings(storage: Storage = localStorage): ReadingSettings {
  try {
    return parseReadingSettings(storage.getItem(READING_SETTINGS_KEY));
  } catch {
    return DEFAULT_READING_SETTINGS;
  }
}

export function saveReadingSettings(settings: ReadingSettings, storage: Storage = localStorage): void {
  try {
    storage.setItem(READING_SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Storage full or disabled: the setting still holds for this visit.
  }
}

export function stepFont(settings: ReadingSettings, by: 1 | -1): ReadingSettings {
  return { ...settings, fontStep: clampStep(settings.fontStep + by) };
}

export function fontSizeOf(settings: ReadingSettings): string {
  return `${FONT_SIZES[clampStep(settings.fontStep)]}rem`;
}
