// The sync state's listeners hear every change of it, whoever read the state first. The browser turns
// navigator.onLine before it fires 'offline': a render reading the state between the two must not take the
// change in silently, or the offline toast (a listener) never shows.
import { describe, expect, it } from 'vitest';
import type { Connectivity } from './connectivity';
import { createTestDevice } from '../testing/test-lectern';

/** A network flag that turns first and tells later, as the browser's does. */
function browserLikeConnectivity() {
  let online = true;
  const listeners = new Set<() => void>();
  const connectivity: Connectivity = {
    isOnline: () => online,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    connectivity,
    turn(value: boolean) {
      online = value;
    },
    tell() {
      for (const listener of listeners) listener();
    },
  };
}

describe('the sync state’s listeners', () => {
  it('hear the device go offline and back even when the state was read between the flag and its event', async () => {
    const network = browserLikeConnectivity();
    const { lectern } = createTestDevice({ connectivity: network.connectivity });
    lectern.sync.start();
    const heard: boolean[] = [];
    const stop = lectern.sync.subscribe(() => heard.push(lectern.sync.getState().online));
    try {
      network.turn(false);
      expect(lectern.sync.getState().online).toBe(false);
      network.tell();
      expect(heard).toEqual([false]);

      network.turn(true);
      expect(lectern.sync.getState().online).toBe(true);
      network.tell();
      expect(heard).toEqual([false, true]);

      // Nothing moved: nothing to hear.
      network.tell();
      expect(heard).toEqual([false, true]);
    } finally {
      stop();
      await lectern.sync.stop();
    }
  });
});
