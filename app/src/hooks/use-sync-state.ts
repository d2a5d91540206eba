// The sync engine's state as React sees it: re-rendered on every change, in this tab.
import { useSyncExternalStore } from 'react';
import type { SyncState } from '../data';
import { useLectern } from '../session/use-lectern';

/** Online or offline, syncing, pending count, refused writes and last sync time, live. */
export function useSyncState(): SyncState {
  const { sync } = useLectern();
  return useSyncExternalStore(sync.subscribe, sync.getState);
}

/** Whether the server can be reached, as the sync engine last saw it; live. */
export function useOnline(): boolean {
  const { sync } = useLectern();
  const online = () => sync.getState().online;
  return useSyncExternalStore(sync.subscribe, online, online);
}
