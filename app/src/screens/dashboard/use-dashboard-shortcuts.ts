import { useEffect, useRef } from 'react';
import { shortcutOf, type ShortcutAction } from './dashboard-shortcuts';

/** Listens for the dashboard's shortcuts on the whole page while the dashboard is shown. */
export function useDashboardShortcuts(handle: (action: ShortcutAction, event: KeyboardEvent) => void) {
  const latest = useRef(handle);
  useEffect(() => {
    latest.current = handle;
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented) return;
      // An open dialog owns the keyboard (it closes itself on Esc).
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const action = shortcutOf(event);
      if (action) latest.current(action, event);
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
