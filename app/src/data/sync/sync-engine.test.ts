// The sync engine's rules against a real server over HTTP, through a stand-in proxy that can answer server
// errors itself: the outbox goes out in order; a 5xx or a lost connection stops the push and backs off
// (1 s, 2 s, 4 s … up to a minute, spread by chance, never sooner than Retry-After); a 4xx marks just that
// write failed and holds back only later writes on its entities; a 401 pauses signed out with the outbox
// kept. The engine's timers are replaced by a manual clock, so the delays it picks are read, not waited for.
import type { ListResponse, ListsResponse, TagsResponse } from '@lectern/shared-schema';
import { describe, expect, it } from 'vitest';
import {
  newCredentials,
  serverReader,
  startProxiedWorld,
  type ProxiedWorld,
} from '../testing/server-fixture';
import { LIVE_ANSWER } from '../testing/live-answer';
import { manualTimers } from '../testing/manual-timers';
import { worldPerFile } from '../testing/per-test';
import { createTestDevice } from '../testing/test-lectern';

let world: ProxiedWorld;
worldPerFile(startProxiedWorld, (started) => (world = started));

/** A device behind the proxy that syncs by itself (on its manual timers), signed in as a new user. */
async function backgroundDevice(random?: number) {
  const clock = manualTimers(random);
  const device = createTestDevice({
    baseUrl: world.proxy.url,
    backgroundSync: true,
    syncTimers: clock.timers,
    // The periodic sync runs on a real interval: out of the way of a slow test.
    syncPeriodMs: 24 * 3_600_000,
  });
  const credentials = newCredentials();
  const auth = await device.lectern.auth.register(credentials);
  const { sync } = device.lectern;
  /** Lets the runs the timers started finish. */
  async function settle() {
    await new Promise((resolve) => setTimeout(resolve, 0));
    while (sync.getState().syncing) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  /** Lets the time of the waiting timers pass: the syncs they start run to their end. */
  async function wake() {
    clock.fire();
    await settle();
  }
  // Sign-in asks for a sync at once: let it run, so the timers start empty.
  await wake();
  expect(clock.delays()).toEqual([]);
  return { ...device, clock, credentials, auth, wake, server: serverReader(world, auth.token) };
}

type Device = Awaited<ReturnType<typeof backgroundDevice>>;

/**
 * Makes writes offline (the syncs they ask for run while offline and do nothing), then reconnects: the
 * engine then waits on one timer of 0 ms, its wake-up sync, which `wake()` runs.
 */
async function offline(device: Device, writes: () => Promise<void>) {
  device.setOnline(false);
  await writes();
  await device.wake();
  device.setOnline(true);
  expect(device.clock.delays()).toEqual([0]);
}

async function outbox(device: Device) {
  const rows = await device.lectern.db.outbox.orderBy('seq').toArray();
  return rows.map((row) => ({
    kind: row.op.kind,
    status: row.status,
    attempts: row.attempts,
    status_code: row.status_code,
    error: row.error,
  }));
}

/** What the device sent to the API other than reads, in order, from where the proxy stood. */
function writesSince(start: number) {
  return world.proxy.requests
    .slice(start)
    .filter((request) => !request.startsWith('GET '))
    .map((request) => request.replace(/[0-9a-f-]{36}/g, ':id'));
}

describe('order', () => {
  it('the outbox reaches the server in the order the writes were made, each once', async () => {
    const device = await backgroundDevice();
    const { tags, lists } = device.lectern;
    let tagId = '';
    let listId = '';
    await offline(device, async () => {
      tagId = (await tags.create({ name: 'draft' })).tag.id;
      listId = (await lists.create({ name: 'Queue' })).list.id;
      await tags.update(tagId, { name: 'final' });
      await lists.update(listId, { name: 'Queue 2', isPublic: false });
      await tags.remove(tagId);
    });
    const start = world.proxy.requests.length;
    await device.wake();
    expect(writesSince(start)).toEqual([
      'POST /api/tags',
      'POST /api/lists',
      'PUT /api/tags/:id',
      'PUT /api/lists/:id',
      'DELETE /api/tags/:id',
    ]);
    expect(await outbox(device)).toEqual([]);
    expect((await device.server<TagsResponse>('/tags')).tags).toEqual([]);
    expect((await device.server<ListResponse>(`/lists/${listId}`)).list).toMatchObject({
      name: 'Queue 2',
      is_public: false,
    });
    expect(await device.lectern.db.tags.count()).toBe(0);
    expect(await device.lectern.db.lists.get(listId)).toMatchObject({ name: 'Queue 2', is_public: false });
    expect(device.clock.delays()).toEqual([]);
    await device.lectern.close();
  });
});

describe('server errors (5xx) and lost connections', () => {
  it('stop the push at that write, keep it and the rest in order, and back off until the server answers', async () => {
    const device = await backgroundDevice();
    const { tags, lists, sync } = device.lectern;
    let listId = '';
    await offline(device, async () => {
      await tags.create({ name: 'first' });
      listId = (await lists.create({ name: 'Second' })).list.id;
      await lists.update(listId, { description: 'third' });
    });
    world.proxy.answers.set('POST /api/lists', {
      status: 503,
      headers: { 'content-type': 'text/html' },
      body: '<h1>503 Service Unavailable</h1>',
    });
    try {
      await device.wake();
      // The tag went; the list's create is tried again later, its update waits behind it.
      expect(await outbox(device)).toEqual([
        { kind: 'createList', status: 'pending', attempts: 1, status_code: null, error: null },
        { kind: 'updateList', status: 'pending', attempts: 0, status_code: null, error: null },
      ]);
      expect((await device.server<TagsResponse>('/tags')).tags.map((tag) => tag.name)).toEqual(['first']);
      expect((await device.server<ListsResponse>('/lists')).lists).toEqual([]);
      // Shown on the device meanwhile, and not as a failure.
      expect(await device.lectern.db.lists.get(listId)).toMatchObject({
        name: 'Second',
        description: 'third',
      });
      // The state follows the outbox through a live query: it may answer a moment after the write.
      await expect.poll(() => sync.getState(), LIVE_ANSWER).toMatchObject({ failed: [], pendingCount: 2 });

      // 1 s doubling up to 60 s, each times 0.5 + random/2 (random is 0.5 here: times 0.75).
      const delays = [device.clock.delays()];
      for (let retry = 0; retry < 7; retry += 1) {
        await device.wake();
        delays.push(device.clock.delays());
      }
      expect(delays).toEqual([[750], [1500], [3000], [6000], [12_000], [24_000], [45_000], [45_000]]);
      expect((await outbox(device)).map((row) => row.attempts)).toEqual([8, 0]);

      // A lost connection backs off the same way.
      device.network.state.online = false;
      await device.wake();
      expect(device.clock.delays()).toEqual([45_000]);

      // Retry-After is a floor.
      device.network.state.online = true;
      world.proxy.answers.set('POST /api/lists', { status: 503, headers: { 'retry-after': '120' } });
      await device.wake();
      expect(device.clock.delays()).toEqual([120_000]);
    } finally {
      world.proxy.answers.clear();
    }

    // The server is back: the next timer drains the outbox in order.
    await device.wake();
    expect(await outbox(device)).toEqual([]);
    expect((await device.server<ListsResponse>('/lists')).lists).toMatchObject([
      { id: listId, name: 'Second', description: 'third' },
    ]);
    expect((await device.lectern.db.lists.get(listId))?.share_id).not.toBe('');
    expect(sync.getState()).toMatchObject({ online: true, pendingCount: 0, failed: [] });

    // A success starts the backoff over from one second.
    await offline(device, async () => void (await tags.create({ name: 'later' })));
    world.proxy.answers.set('POST /api/tags', { status: 502 });
    try {
      await device.wake();
      expect(device.clock.delays()).toEqual([750]);
    } finally {
      world.proxy.answers.clear();
    }
    await device.lectern.close();
  });

  it('the chance part spreads a retry between half and all of the step', async () => {
    for (const [random, expected] of [
      [0, 500],
      [0.999, 999.5],
    ] as const) {
      const device = await backgroundDevice(random);
      device.network.state.online = false;
      device.lectern.sync.requestSync(0);
      await device.wake();
      expect(device.clock.delays()).toEqual([expected]);
      await device.lectern.close();
    }
  });
});

describe('a refused write (4xx)', () => {
  it('is marked failed with the server’s reason; only later writes on its entities wait, with no backoff', async () => {
    const device = await backgroundDevice();
    const { tags, lists, sync } = device.lectern;
    const sky = (await tags.create({ name: 'sky' })).tag.id;
    await sync.syncNow();
    let listId = '';
    await offline(device, async () => {
      await tags.update(sky, { name: 'space' });
      await tags.update(sky, { name: 'heavens' });
      listId = (await lists.create({ name: 'Stars' })).list.id;
    });
    // Meanwhile another device of the user takes the name.
    const taken = await fetch(`${world.server.url}/api/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.auth.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'space' }),
    });
    expect(taken.status).toBe(201);
    const start = world.proxy.requests.length;

    await device.wake();
    expect(writesSince(start)).toEqual(['PUT /api/tags/:id', 'POST /api/lists']);
    expect(await outbox(device)).toEqual([
      {
        kind: 'renameTag',
        status: 'failed',
        attempts: 1,
        status_code: 409,
        error: 'A tag with this name already exists',
      },
      { kind: 'renameTag', status: 'pending', attempts: 0, status_code: null, error: null },
    ]);
    await expect
      .poll(() => sync.getState().failed, LIVE_ANSWER)
      .toMatchObject([
        { status: 409, error: 'A tag with this name already exists', op: { kind: 'renameTag', id: sky } },
      ]);
    expect(device.clock.delays()).toEqual([]);
    expect((await device.server<TagsResponse>('/tags')).tags.map((tag) => tag.name)).toEqual([
      'sky',
      'space',
    ]);
    expect((await device.server<ListsResponse>('/lists')).lists.map((list) => list.id)).toEqual([listId]);

    // Held back, the later rename waits for the person to Retry or Discard: a sync sends nothing.
    const again = world.proxy.requests.length;
    expect(await sync.syncNow()).toMatchObject({ status: 'synced', pushed: 0 });
    expect(writesSince(again)).toEqual([]);
    const [failed] = await device.lectern.db.outbox.toArray();
    await sync.discard(failed!.seq!);
    expect(await sync.syncNow()).toMatchObject({ status: 'synced', pushed: 1 });
    expect(await outbox(device)).toEqual([]);
    expect((await device.server<TagsResponse>('/tags')).tags.map((tag) => tag.name)).toEqual([
      'heavens',
      'space',
    ]);
    expect((await device.lectern.db.tags.get(sky))?.name).toBe('heavens');
    await device.lectern.close();
  });
});

describe('a 401', () => {
  it('pauses the sync signed out with the whole outbox kept and no retry timer; the same user signing in drains it', async () => {
    const device = await backgroundDevice();
    const { tags, lists, sync } = device.lectern;
    await offline(device, async () => {
      await tags.create({ name: 'kept' });
      await lists.create({ name: 'Kept too' });
    });
    // The session ends elsewhere (sign out everywhere).
    const revoked = await fetch(`${world.server.url}/api/auth/logout-all`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.auth.token}` },
    });
    expect(revoked.status).toBeLessThan(300);

    await device.wake();
    expect(device.storage.getItem('token')).toBeNull();
    expect(sync.getState().signedOut).toBe(true);
    expect(await outbox(device)).toEqual([
      { kind: 'createTag', status: 'pending', attempts: 0, status_code: null, error: null },
      { kind: 'createList', status: 'pending', attempts: 0, status_code: null, error: null },
    ]);
    expect(device.clock.delays()).toEqual([]);
    // Signed out, a sync asks nothing of the server.
    const start = world.proxy.requests.length;
    expect(await sync.syncNow()).toEqual({ status: 'signedOut' });
    expect(world.proxy.requests.length).toBe(start);

    const again = await device.lectern.auth.login(device.credentials);
    await device.wake();
    expect(await outbox(device)).toEqual([]);
    const server = serverReader(world, again.token);
    expect((await server<TagsResponse>('/tags')).tags.map((tag) => tag.name)).toEqual(['kept']);
    expect((await server<ListsResponse>('/lists')).lists.map((list) => list.name)).toEqual(['Kept too']);
    expect(sync.getState().signedOut).toBe(false);
    await device.lectern.close();
  });
});

describe('what listeners hear of a sync', () => {
  it('its end together with its time stamp, and nothing more when the stamp is read back', async () => {
    const { lectern } = createTestDevice({ baseUrl: world.proxy.url });
    await lectern.auth.register(newCredentials());
    const { sync } = lectern;
    sync.start();
    const heard: { syncing: boolean; lastSyncedAt: string | null }[] = [];
    const stop = sync.subscribe(() => {
      const { syncing, lastSyncedAt } = sync.getState();
      heard.push({ syncing, lastSyncedAt });
    });
    try {
      for (let round = 0; round < 2; round += 1) {
        heard.length = 0;
        const before = sync.getState().lastSyncedAt;
        // A write queued: the outbox (read by the same live query as the stamp) changes during the run.
        await lectern.lists.create({ name: `Heard ${round}` });
        expect((await sync.syncNow()).status).toBe('synced');
        // The live query reads the outbox and the stamp back after the run: give it time to be told.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const end = heard.findIndex((state, i) => i > 0 && heard[i - 1]!.syncing && !state.syncing);
        expect(end).toBeGreaterThan(0);
        const stamp = heard[end]!.lastSyncedAt;
        expect(stamp).not.toBe(before);
        expect(stamp).toBe(await lectern.db.getMeta('lastSyncedAt'));
        // Nothing heard before the end had the new stamp, nothing after it had another.
        expect(heard.slice(0, end).every((state) => state.lastSyncedAt === before)).toBe(true);
        expect(heard.slice(end).every((state) => state.lastSyncedAt === stamp)).toBe(true);
      }
    } finally {
      stop();
      await sync.stop();
    }
  });
});
