/** The dashboard's keyboard shortcuts (spec section 2), listed on the Help page and in the "?" dialog. */
export const KEYBOARD_SHORTCUTS = [
  { key: 's', label: 'S', action: 'Save: jump to the save-article field' },
  { key: '/', label: '/', action: 'Search: jump to the search box' },
  { key: 'Escape', label: 'Esc', action: 'Close whatever is open — a dialog, a panel or this list' },
  { key: '?', label: '?', action: 'Show the list of shortcuts' },
] as const satisfies readonly { key: string; label: string; action: string }[];

export type ShortcutKey = (typeof KEYBOARD_SHORTCUTS)[number]['key'];
