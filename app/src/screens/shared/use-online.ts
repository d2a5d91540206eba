import { useSyncExternalStore } from 'react';
import { useLectern } from '../../session/use-lectern';

/** Whether the server can be reached, as the sync engine last saw it; live. */
export function useOnline(): boolean {
  const { sync } = useLectern();
  const online = () => sync.getState().online;
  return useSyncExternalStore(sync.subscribe, online, online);
}
