// Live updates: a device holding the server's event stream pulls another device's write the moment it
// lands, with its periodic sync a day away; while the stream is refused or cut it syncs by its old
// triggers and reconnects with backoff and a fresh ticket; sign-out closes it. Against a real server
// behind a stand-in proxy, with a real stream read over fetch (Node has no EventSource). The backoff's
// delays are read from manual timers with a stand-in EventSource, which is all that test needs of one.
import { TOKEN_STORAGE_KEY } from '@lectern/shared-schema';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../api/http-client';
import { manualConnectivity } from './connectivity';
import { createLiveUpdates, type LiveEventSource } from './live-updates';
import { fetchEventSources } from '../testing/fetch-event-source';
import { manualTimers } from '../testing/manual-timers';
import { worldPerFile } from '../testing/per-test';
import { newCredentials, startProxiedWorld, type ProxiedWorld } from '../testing/server-fixture';
import { createTestDevice, memoryStorage, type TestDevice } from '../testing/test-lectern';

let world: ProxiedWorld;
worldPerFile(startProxiedWorld, (started) => (world = started));

const DAY_MS = 24 * 3_600_000;
const devices: TestDevice[] = [];
afterEach(async () => {
  world.proxy.answers.clear();
  for (const device of devices.splice(0)) await device.lectern.close();
});

async function until(
  check: () => boolean | Promise<boolean>,
  withinMs: number,
  what: string,
): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - started;
}

/**
 * The same user on a phone (syncs when told) and a laptop that syncs by itself, holding the event stream,
 * its periodic sync a day away: only the stream can bring the phone's writes in quickly.
 */
async function phoneAndLaptop() {
  const credentials = newCredentials();
  const phone = createTestDevice({ baseUrl: world.proxy.url });
  devices.push(phone);
  await phone.lectern.auth.register(credentials);
  const sources = fetchEventSources();
  const laptop = createTestDevice({
    baseUrl: world.proxy.url,
    backgroundSync: true,
    syncPeriodMs: DAY_MS,
    openEventSource: sources.open,
  });
  devices.push(laptop);
  await laptop.lectern.auth.login({ email: credentials.email, password: credentials.password });
  const hasTag = async (name: string) =>
    (await laptop.lectern.db.tags.toArray()).some((tag) => tag.name === name);
  /** The phone adds a tag and syncs it: answers when the server has it. */
  async function phoneAddsTag(name: string) {
    await phone.lectern.tags.create({ name });
    expect(await phone.lectern.sync.syncNow()).toMatchObject({ status: 'synced', pushed: 1 });
  }
  return { phone, laptop, sources, hasTag, phoneAddsTag };
}

describe('a device holding the event stream', () => {
  it("pulls another device's write within a second while its periodic sync is a day away", async () => {
    const { laptop, sources, hasTag, phoneAddsTag } = await phoneAndLaptop();
    await until(() => laptop.lectern.sync.isLive(), 3000, 'the stream opens');
    expect(sources.opened).toHaveLength(1);
    expect(sources.opened[0]).toMatch(/\/api\/sync\/events\?ticket=[\w-]+\.[\w-]+\.[\w-]+$/);
    const latencies: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const name = `live ${i}`;
      const started = performance.now();
      await phoneAddsTag(name);
      await until(() => hasTag(name), 1000, `the laptop has "${name}"`);
      latencies.push(performance.now() - started);
    }
    console.log(
      `phone's tag on the laptop: ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms from the phone's write to the laptop's database`,
    );
  });

  it('syncs by its old triggers while the stream is refused, and reconnects with a fresh ticket', async () => {
    // The proxy refuses every stream, as a server at its cap does.
    world.proxy.answers.set('GET /api/sync/events', {
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '60' },
      body: '{"error":"busy"}',
    });
    const { laptop, sources, hasTag, phoneAddsTag } = await phoneAndLaptop();
    await until(() => sources.opened.length >= 2, 4000, 'a second attempt after the first refusal');
    expect(laptop.lectern.sync.isLive()).toBe(false);
    await phoneAddsTag('while refused');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await hasTag('while refused')).toBe(false);
    // An old trigger: the network comes back.
    laptop.setOnline(false);
    laptop.setOnline(true);
    await until(() => hasTag('while refused'), 2000, 'the laptop syncs when the network comes back');
    // The proxy lets streams through again: the next attempt opens one, with a ticket of its own.
    world.proxy.answers.clear();
    await until(() => laptop.lectern.sync.isLive(), 20_000, 'the stream opens again');
    const ticketsAsked = world.proxy.requests.filter((request) => request === 'POST /api/sync/events/ticket');
    expect(ticketsAsked.length).toBeGreaterThanOrEqual(sources.opened.length);
    await phoneAddsTag('live again');
    await until(() => hasTag('live again'), 1000, 'the laptop hears it at once');
  }, 40_000);

  it('reconnects after the stream is cut, and catches up with what landed meanwhile', async () => {
    const { laptop, sources, hasTag, phoneAddsTag } = await phoneAndLaptop();
    await until(() => laptop.lectern.sync.isLive(), 3000, 'the stream opens');
    world.proxy.cutConnections();
    await until(() => !laptop.lectern.sync.isLive(), 1000, 'the laptop sees the stream go');
    await phoneAddsTag('while cut');
    await until(() => laptop.lectern.sync.isLive(), 5000, 'the stream opens again');
    expect(sources.opened).toHaveLength(2);
    // Opening again pulls: the write made while it was down arrives without any other trigger.
    await until(() => hasTag('while cut'), 1000, 'the laptop catches up');
  });

  it('closes the stream at sign-out, and when the device goes offline', async () => {
    const { laptop, sources } = await phoneAndLaptop();
    await until(() => sources.live() === 1 && laptop.lectern.sync.isLive(), 3000, 'the stream opens');
    laptop.setOnline(false);
    await until(() => sources.live() === 0, 1000, 'offline closes it');
    laptop.setOnline(true);
    await until(() => sources.live() === 1 && laptop.lectern.sync.isLive(), 3000, 'online opens it again');
    await laptop.lectern.auth.logout();
    await until(() => sources.live() === 0, 1000, 'sign-out closes it');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sources.opened).toHaveLength(2);
  });
});

/** A stand-in EventSource: the test says which events it gets. */
function standInSources() {
  const made: { url: string; closed: boolean; emit(type: string, data?: string): void }[] = [];
  const open = (url: string): LiveEventSource => {
    const listeners = new Map<string, ((event: { data?: unknown }) => void)[]>();
    const entry = {
      url,
      closed: false,
      emit: (type: string, data?: string) => {
        for (const listener of listeners.get(type) ?? []) listener({ data });
      },
    };
    made.push(entry);
    return {
      addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
      close: () => void (entry.closed = true),
    };
  };
  return { made, open };
}

describe('the backoff between attempts', () => {
  it('doubles from a second up to the cap, starts over once a stream is ready, and waits longest when replaced', async () => {
    const user = newCredentials();
    const registered = await fetch(`${world.server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });
    const storage = memoryStorage();
    let ticketRequests = 0;
    storage.setItem(TOKEN_STORAGE_KEY, ((await registered.json()) as { token: string }).token);
    const http = createHttpClient({
      baseUrl: world.server.url,
      fetch: (url, init) => {
        if (url.endsWith('/api/sync/events/ticket') && init.method === 'POST') ticketRequests += 1;
        return fetch(url, init);
      },
      tokenStorage: storage,
      onUnauthorized: () => undefined,
    });
    const clock = manualTimers();
    const sources = standInSources();
    const connectivity = manualConnectivity(true);
    let pulls = 0;
    const live = createLiveUpdates({
      http,
      connectivity,
      openEventSource: sources.open,
      onChanged: () => (pulls += 1),
      timers: clock.timers,
      maxBackoffMs: 16_000,
    });
    const opened = async (count: number) =>
      until(() => sources.made.length === count, 2000, `stream ${count}`);
    live.start();
    await opened(1);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      sources.made.at(-1)?.emit('error');
      expect(sources.made.at(-1)?.closed).toBe(true);
      delays.push(...clock.delays());
      clock.fire();
      await opened(attempt + 1);
    }
    // 1 s, 2 s, 4 s … capped at 16 s, each spread to between half and all of it (here three quarters).
    expect(delays).toEqual([750, 1500, 3000, 6000, 12_000, 12_000]);
    const current = () => sources.made.at(-1);
    current()?.emit('ready');
    expect(live.isOpen()).toBe(true);
    expect(pulls).toBe(1);
    current()?.emit('changed', '{}');
    expect(pulls).toBe(2);
    current()?.emit('error');
    expect(clock.delays()).toEqual([750]);
    clock.fire();
    await opened(8);
    current()?.emit('ready');
    current()?.emit('closed', '{"reason":"replaced"}');
    expect(clock.delays()).toEqual([16_000]);
    // Every attempt asked for a ticket of its own.
    expect(ticketRequests).toBe(sources.made.length);
    expect(
      sources.made.every((made) => /\/api\/sync\/events\?ticket=[\w-]+\.[\w-]+\.[\w-]+$/.test(made.url)),
    ).toBe(true);
    // Offline: nothing open, nothing waiting; online again: a stream at once.
    connectivity.set(false);
    expect(clock.delays()).toEqual([]);
    connectivity.set(true);
    await opened(9);
    // Signed out: closed, and nothing is tried until the next sign-in.
    storage.removeItem(TOKEN_STORAGE_KEY);
    live.update();
    expect(current()?.closed).toBe(true);
    expect(clock.delays()).toEqual([]);
    live.stop();
  });
});
