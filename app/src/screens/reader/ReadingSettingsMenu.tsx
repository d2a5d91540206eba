import type { RefObject } from 'react';
import { FloatingPanel } from './FloatingPanel';
import type { Box } from './popover-position';
import { FONT_SIZES, READING_THEMES, stepFont, type ReadingSettings } from './reading-settings';

const THEME_LABEL = { light: 'Light', dark: 'Dark' } as const;

export interface ReadingSettingsMenuProps {
  settings: ReadingSettings;
  onChange: (settings: ReadingSettings) => void;
  anchor: Box;
  triggerRef: RefObject<HTMLElement | null>;
  onClose: () => void;
}

export function ReadingSettingsMenu({
  settings,
  onChange,
  anchor,
  triggerRef,
  onClose,
}: ReadingSettingsMenuProps) {
  const percent = Math.round((FONT_SIZES[settings.fontStep]! / FONT_SIZES[2]) * 100);
  return (
    <FloatingPanel
      label="Reading settings"
      anchor={anchor}
      attach="viewport"
      triggerRef={triggerRef}
      onClose={onClose}
      className="reading-settings"
    >
      <p className="floating-panel__title">Reading settings</p>
      <div className="reading-settings__group" role="group" aria-labelledby="reading-settings-size">
        <span id="reading-settings-size" className="reading-settings__label">
          Text size
        </span>
        <div className="reading-settings__stepper">
          <button
            type="button"
            className="reading-settings__step"
            disabled={settings.fontStep === 0}
            onClick={() => onChange(stepFont(settings, -1))}
          >
            <span aria-hidden="true">A−</span>
            <span className="sr-only">Smaller text</span>
          </button>
          <output className="reading-settings__value" aria-live="polite">
            {percent}%
          </output>
          <button
            type="button"
            className="reading-settings__step reading-settings__step--large"
            disabled={settings.fontStep === FONT_SIZES.length - 1}
            onClick={() => onChange(stepFont(settings, 1))}
          >
            <span aria-hidden="true">A+</span>
            <span className="sr-only">Larger text</span>
          </button>
        </div>
      </div>
      <fieldset className="reading-settings__group">
        <legend className="reading-settings__label">Theme</legend>
        <div className="reading-settings__themes">
          {READING_THEMES.map((theme) => (
            <label key={theme} className={`reading-settings__theme reading-settings__theme--${theme}`}>
              <input
                type="radio"
                name="reading-theme"
                value={theme}
                checked={settings.theme === theme}
                onChange={() => onChange({ ...settings, theme })}
              />
              {THEME_LABEL[theme]}
            </label>
          ))}
        </div>
      </fieldset>
    </FloatingPanel>
  );
}
