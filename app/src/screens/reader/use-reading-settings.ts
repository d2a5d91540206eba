import { useEffect, useState } from 'react';
import { loadReadingSettings, saveReadingSettings, type ReadingSettings } from './reading-settings';

/**
 * The reader's settings, kept for next time. The theme applies to the whole page while the reader is
 * open (toolbar and navigation too), through a data attribute the reader's styles key on.
 */
export function useReadingSettings() {
  const [settings, setSettings] = useState<ReadingSettings>(() => loadReadingSettings());

  useEffect(() => {
    saveReadingSettings(settings);
  }, [settings]);

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.readingTheme = settings.theme;
    return () => {
      delete root.dataset.readingTheme;
    };
  }, [settings.theme]);

  return [settings, setSettings] as const;
}
