// What a test file sets up around its tests, written once: a server world for the whole file, a device per
// test. Kept apart from server-fixture and test-lectern, which the benches load outside the test runner.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { World } from './server-fixture';
import { createTestDevice, type TestDevice } from './test-lectern';

/** Starts a world (startWorld, startProxiedWorld) before the file's tests, hands it to `use`, and closes it after them. */
export function worldPerFile<W extends World>(start: () => Promise<W>, use: (world: W) => void): void {
  let world: W | undefined;
  beforeAll(async () => {
    world = await start();
    use(world);
  });
  afterAll(async () => {
    await world?.close();
  });
}

/** Before each test a device with a token (signed in as far as it knows) and no network; closed after the test. */
export function offlineDevicePerTest(use: (device: TestDevice) => void): void {
  let device: TestDevice | undefined;
  beforeEach(() => {
    device = createTestDevice();
    device.storage.setItem('token', 'a-token');
    device.setOnline(false);
    use(device);
  });
  afterEach(async () => {
    await device?.lectern.close();
  });
}
