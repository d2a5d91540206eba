import { KEYBOARD_SHORTCUTS } from './keyboard-shortcuts';

/** The shortcuts as a definition list: the key, then what it does. */
export function ShortcutList() {
  return (
    <dl className="shortcut-list">
      {KEYBOARD_SHORTCUTS.map((shortcut) => (
        <div className="shortcut-list__row" key={shortcut.key}>
          <dt>
            <kbd>{shortcut.label}</kbd>
          </dt>
          <dd>{shortcut.action}</dd>
        </div>
      ))}
    </dl>
  );
}
