// @vitest-environment happy-dom
// Installing the app asks the browser to keep its data for good: the offline library is for the plane.
import '../data/testing/install-fake-indexeddb';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDevice } from '../data/testing/test-lectern';
import { LecternProvider } from '../session/LecternProvider';
import { usePersistOnInstall } from './use-persist-on-install';

function Shell() {
  usePersistOnInstall();
  return null;
}

afterEach(() => cleanup());

describe('usePersistOnInstall', () => {
  it('asks for persistent storage when the app is installed, not before', async () => {
    const device = createTestDevice();
    const persist = vi.spyOn(device.lectern.offline, 'requestPersistentStorage').mockResolvedValue(true);
    render(
      <LecternProvider lectern={device.lectern}>
        <Shell />
      </LecternProvider>,
    );
    expect(persist).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('appinstalled'));
    expect(persist).toHaveBeenCalledTimes(1);
    cleanup();
    // Gone with the shell: no call after it unmounts.
    window.dispatchEvent(new Event('appinstalled'));
    expect(persist).toHaveBeenCalledTimes(1);
    await device.lectern.close();
  });
});
