// A sign-in on a new device asks for the first page of the feed as it answers, before the screens render
// (sync-engine.ts askFirstPage); the first sync's pull takes that page instead of asking again, and a page
// it would not ask for (the device moved on meanwhile) is dropped. Against a real server.
import { CHANGES_MAX_LIMIT } from '@lectern/shared-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statsOf } from '../db/article-counts';
import { manualTimers } from '../testing/manual-timers';
import { startSeededServer, type SeededServer } from '../testing/seeded-server';
import { createTestDevice } from '../testing/test-lectern';

const ARTICLES = 60;
const READER = { email: 'early-page@example.com', password: 'correct horse battery', username: 'Early' };

let seeded: SeededServer;

beforeAll(async () => {
  seeded = await startSeededServer(READER, ARTICLES);
}, 120_000);

afterAll(async () => {
  await seeded?.server.close();
});

/** A new device that syncs by itself, on timers the test fires. */
function newDevice() {
  const clock = manualTimers();
  const device = createTestDevice({
    baseUrl: seeded.server.url,
    backgroundSync: true,
    syncTimers: clock.timers,
    syncPeriodMs: 24 * 3_600_000,
    openEventSource: null,
  });
  /** Runs the syncs the timers hold, to their end. */
  async function runSyncs() {
    clock.fire();
    await new Promise((resolve) => setTimeout(resolve, 0));
    while (device.lectern.sync.getState().syncing) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const feedRequests = () =>
    device.network.state.requests.filter((request) => request.url.includes('/api/sync/changes'));
  return { ...device, runSyncs, feedRequests };
}

describe('the first page of a new device', () => {
  it('is asked for as the sign-in answers, and the first sync takes it rather than asking again', async () => {
    const device = newDevice();
    try {
      await device.lectern.auth.login({ email: READER.email, password: READER.password });
      // No sync has run yet (its timer waits): the page is on its way all the same.
      expect(device.lectern.sync.getState().syncing).toBe(false);
      expect(device.feedRequests().map((request) => new URL(request.url).search)).toEqual([
        `?since=0&limit=${CHANGES_MAX_LIMIT}&cards=true`,
      ]);
      await device.runSyncs();
      // The first sync asked for nothing more than that page: the library fits in it.
      expect(device.feedRequests()).toHaveLength(1);
      expect(statsOf(await device.lectern.db.articleCounts()).total).toBe(ARTICLES);
      expect(await device.lectern.db.getMeta('cursor')).toBeGreaterThan(0);
    } finally {
      await device.lectern.close();
    }
  });

  it('is dropped when the pull would ask for another page, and after a stop', async () => {
    const device = newDevice();
    try {
      await device.lectern.auth.login({ email: READER.email, password: READER.password });
      await device.runSyncs();
      const cursor = (await device.lectern.db.getMeta('cursor'))!;
      // Asked again on a device that has pulled: nothing is asked for (only a first sync's page is).
      await device.lectern.sync.askFirstPage();
      expect(device.feedRequests()).toHaveLength(1);

      // A page asked for from nothing, then the device moves on (another tab pulled meanwhile).
      await device.lectern.db.setMeta('cursor', 0);
      await device.lectern.sync.askFirstPage();
      expect(device.feedRequests()).toHaveLength(2);
      await device.lectern.db.setMeta('cursor', cursor);
      await device.lectern.sync.syncNow();
      // The pull asked from where the device stood, not taking the page from 0.
      expect(new URL(device.feedRequests()[2]!.url).searchParams.get('since')).toBe(String(cursor));
      expect(device.feedRequests()).toHaveLength(3);

      // Asked, then stopped (a logout): the next pull from 0 asks again.
      await device.lectern.db.setMeta('cursor', 0);
      await device.lectern.sync.askFirstPage();
      await device.lectern.sync.stop();
      await device.lectern.sync.syncNow();
      const sinceZero = device.feedRequests().filter((request) => request.url.includes('since=0&'));
      expect(sinceZero).toHaveLength(4);
      expect(statsOf(await device.lectern.db.articleCounts()).total).toBe(ARTICLES);
    } finally {
      await device.lectern.close();
    }
  });
});
