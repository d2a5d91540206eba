// The dashboard's keyboard shortcuts (the Help page lists them): S save, / search, Esc close, ? shortcuts.
export type ShortcutAction = 'focusSave' | 'focusSearch' | 'close' | 'showShortcuts';

export interface ShortcutKeyEvent {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Where the key was pressed: typing in a field is never a shortcut (Esc aside). */
  target: EventTarget | null;
}

const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color']);

function isTyping(target: EventTarget | null): boolean {
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type);
  return target instanceof HTMLElement && target.isContentEditable;
}

export function shortcutOf(event: ShortcutKeyEvent): ShortcutAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (event.key === 'Escape') return 'close';
  if (isTyping(event.target)) return null;
  if (event.key === 's' || event.key === 'S') return 'focusSave';
  if (event.key === '/') return 'focusSearch';
  if (event.key === '?') return 'showShortcuts';
  return null;
}
