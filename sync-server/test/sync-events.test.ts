// Live updates between devices (GET /api/sync/events): a device's stream hears the writes of the user's
// other devices at once, and nobody else's; tickets open streams for one minute and nothing else; a
// session that ends takes its streams with it; heartbeats keep an idle stream open past every timeout;
// per-user and per-node caps; a client that goes away leaves nothing behind; closing the server ends them.
import { SERVER_ERRORS, SYNC_EVENTS_TICKET_SECONDS } from '@lectern/shared-schema';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config';
import { syncEventsTicketKey } from '../src/live/event-tickets';
import { freeLocalPort } from '../src/testing/listen-locally';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { ApiClient, signUp } from './support/api-client';
import { openEventStream, openedStream, type OpenStream } from './support/event-stream';

const JWT_SECRET = 'test-secret-'.padEnd(48, 'x');
const HEARTBEAT_MS = 200;
const PER_USER = 3;
const NODE_MAX = 6;

let server: TestServer;
let api: ApiClient;
const opened: OpenStream[] = [];

beforeAll(async () => {
  server = await startTestServer({
    env: {
      SYNC_EVENTS_HEARTBEAT_MS: String(HEARTBEAT_MS),
      SYNC_EVENTS_PER_USER: String(PER_USER),
      SYNC_EVENTS_MAX: String(NODE_MAX),
      SYNC_EVENTS_TICKET_SECONDS: '2',
      // Far shorter than a stream is held here: the limit on receiving a request never cuts a stream.
      REQUEST_TIMEOUT_MS: '300',
      REGISTRATIONS_PER_IP: '1000',
    },
  });
  api = new ApiClient(server.url);
});
afterAll(() => server.close());

/** Every stream a test opened is closed after it, and the server is seen to let go of all of them. */
afterEach(async () => {
  for (const stream of opened.splice(0)) stream.close();
  await until(() => server.app.liveUpdates.streams.size === 0);
});

async function until(check: () => boolean, withinMs = 3000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const eventsUrl = (query = '') => `${server.url}/api/sync/events${query}`;

async function stream(token: string): Promise<OpenStream> {
  const opening = await openedStream(eventsUrl(), { authorization: `Bearer ${token}` });
  opened.push(opening);
  await opening.next('ready');
  return opening;
}

async function ticketStream(ticket: string): Promise<OpenStream> {
  const opening = await openedStream(eventsUrl(`?ticket=${encodeURIComponent(ticket)}`));
  opened.push(opening);
  await opening.next('ready');
  return opening;
}

/** A user signed in on two devices: two sessions, two tokens. */
async function userOnTwoDevices() {
  const first = await signUp(api);
  const login = await api.post('/auth/login', { email: first.email, password: first.password });
  expect(login.status).toBe(200);
  return {
    ...first,
    phone: first.client,
    laptop: api.as(login.body.token),
    laptopToken: login.body.token as string,
  };
}

/** An HS256 JWT made by hand: what a forger with (or without) a key could send. */
function handMadeJwt(claims: Record<string, unknown>, key: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

let user: Awaited<ReturnType<typeof userOnTwoDevices>>;
let other: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  user = await userOnTwoDevices();
  other = await signUp(api);
});

describe('a device connected to the stream', () => {
  it('hears a write made on another device of the same user well within a second, and pulls it', async () => {
    const laptop = await stream(user.laptopToken);
    const latencies: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const from = laptop.events.length;
      const sent = performance.now();
      const created = await user.phone.post('/tags', { name: `live ${i} ${Date.now()}` });
      expect(created.status).toBe(201);
      const heard = await laptop.next('changed', { from, withinMs: 1000 });
      latencies.push(heard.at - sent);
    }
    latencies.sort((a, b) => a - b);
    const p50 = latencies[Math.floor(latencies.length / 2)] ?? 0;
    const max = latencies.at(-1) ?? 0;
    console.log(`change heard by the other device: p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
    expect(max).toBeLessThan(500);
    // The nudge names nothing: the device reads what changed from the feed.
    expect(JSON.parse(laptop.events.at(-1)?.data ?? '')).toEqual({});
    const feed = await user.laptop.get('/sync/changes?since=0&limit=500');
    expect(feed.body.changes.filter((change: { entity: string }) => change.entity === 'tag')).toHaveLength(
      20,
    );
  });

  it('is a text/event-stream, uncompressed, unbuffered by proxies, starting with "ready"', async () => {
    const laptop = await openedStream(eventsUrl(), {
      authorization: `Bearer ${user.laptopToken}`,
      'accept-encoding': 'gzip, br',
    });
    opened.push(laptop);
    expect(laptop.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(laptop.headers['x-accel-buffering']).toBe('no');
    expect(laptop.headers['cache-control']).toBe('no-store, no-transform');
    expect(laptop.headers['content-encoding']).toBeUndefined();
    // The security headers every answer carries.
    expect(laptop.headers['x-content-type-options']).toBe('nosniff');
    const ready = await laptop.next('ready');
    expect(laptop.events[0]).toBe(ready);
    // A HEAD opens nothing: there would be no body to carry the events.
    const head = await fetch(eventsUrl(), {
      method: 'HEAD',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(head.status).toBe(404);
    expect(server.app.liveUpdates.streams.size).toBe(1);
  });

  it("never hears another user's writes", async () => {
    const mine = await stream(user.laptopToken);
    const theirs = await stream(other.token);
    expect((await user.phone.post('/tags', { name: `mine ${Date.now()}` })).status).toBe(201);
    await mine.next('changed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(theirs.events.map((entry) => entry.event)).toEqual(['ready']);
  });

  it('gets a heartbeat comment every interval and stays open far past the request timeout', async () => {
    const laptop = await stream(user.laptopToken);
    await new Promise((resolve) => setTimeout(resolve, 5 * HEARTBEAT_MS + 100));
    expect(laptop.heartbeats.length).toBeGreaterThanOrEqual(4);
    expect(laptop.isEnded()).toBe(false);
    const from = laptop.events.length;
    expect((await user.phone.post('/tags', { name: `late ${Date.now()}` })).status).toBe(201);
    await laptop.next('changed', { from });
  });
});

describe('who may open a stream', () => {
  it('answers 401 without a token or ticket, and with a bad or revoked token', async () => {
    const refusals = [
      await openEventStream(eventsUrl()),
      await openEventStream(eventsUrl(), { authorization: 'Bearer not-a-token' }),
      await openEventStream(eventsUrl(), { authorization: `Bearer ${user.token}x` }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(401);
      expect(refusal).toMatchObject({ body: { error: SERVER_ERRORS.unauthorized } });
    }
    const gone = await userOnTwoDevices();
    expect((await gone.laptop.post('/auth/logout')).status).toBe(204);
    const revoked = await openEventStream(eventsUrl(), { authorization: `Bearer ${gone.laptopToken}` });
    expect(revoked).toMatchObject({ status: 401, body: { error: SERVER_ERRORS.unauthorized } });
  });

  it('takes a ticket from POST /sync/events/ticket, for a minute by default', async () => {
    expect(loadConfig({ DATA_DIR: server.dataDir, JWT_SECRET }).syncEventsTicketSeconds).toBe(60);
    expect(SYNC_EVENTS_TICKET_SECONDS).toBe(60);
    const answer = await user.laptop.post('/sync/events/ticket');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({ ticket: expect.any(String), expiresInSeconds: 2 });
    const laptop = await ticketStream(answer.body.ticket);
    expect((await user.phone.post('/tags', { name: `ticketed ${Date.now()}` })).status).toBe(201);
    await laptop.next('changed');
    // A ticket opens streams only: as a bearer token it is refused everywhere.
    const asToken = await api.as(answer.body.ticket).get('/auth/me');
    expect(asToken).toMatchObject({ status: 401, body: { error: SERVER_ERRORS.unauthorized } });
    const asStreamToken = await openEventStream(eventsUrl(), {
      authorization: `Bearer ${answer.body.ticket}`,
    });
    expect(asStreamToken).toMatchObject({ status: 401, body: { error: SERVER_ERRORS.unauthorized } });
    // No ticket without a signed-in session.
    expect(await api.post('/sync/events/ticket')).toMatchObject({
      status: 401,
      body: { error: SERVER_ERRORS.unauthorized },
    });
  });

  it('refuses an expired ticket, a bearer token as a ticket, and forged tickets', async () => {
    const { body } = await user.laptop.post('/sync/events/ticket');
    const claims = JSON.parse(Buffer.from(body.ticket.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: user.user.id, aud: 'lectern:sync-events' });
    const key = syncEventsTicketKey(JWT_SECRET);
    const exp = Math.floor(Date.now() / 1000) + 60;
    // The hand-made ticket is right when made right: the refusals below are for what they change.
    await ticketStream(handMadeJwt({ ...claims, exp }, key));
    const refused = {
      'a bearer token': user.laptopToken,
      'signed with the JWT secret itself': handMadeJwt({ ...claims, exp }, JWT_SECRET),
      'for another audience': handMadeJwt({ ...claims, exp, aud: 'lectern:other' }, key),
      'with no audience': handMadeJwt({ sub: claims.sub, sid: claims.sid, exp }, key),
      'with no expiry': handMadeJwt({ sub: claims.sub, sid: claims.sid, aud: claims.aud }, key),
      'with a guessed key': handMadeJwt({ ...claims, exp }, 'x'.repeat(43)),
      'with its signature changed': `${body.ticket.slice(0, -2)}${body.ticket.endsWith('AA') ? 'AB' : 'AA'}`,
      'of alg none': `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${body.ticket.split('.')[1]}.`,
      'for another user': handMadeJwt({ ...claims, sub: other.user.id, exp }, key),
    };
    for (const [what, ticket] of Object.entries(refused)) {
      const answer = await openEventStream(eventsUrl(`?ticket=${encodeURIComponent(ticket)}`));
      expect(answer.status, what).toBe(401);
      const text =
        what === 'for another user' ? SERVER_ERRORS.unauthorized : SERVER_ERRORS.syncEventsTicketInvalid;
      expect(answer, what).toMatchObject({ body: { error: text } });
    }
    // Tickets live 2 s on this server: one made now opens a stream now, and nothing 3 s later.
    const fresh = (await user.laptop.post('/sync/events/ticket')).body.ticket as string;
    (await ticketStream(fresh)).close();
    await new Promise((resolve) => setTimeout(resolve, 3100));
    const expired = await openEventStream(eventsUrl(`?ticket=${encodeURIComponent(fresh)}`));
    expect(expired).toMatchObject({ status: 401, body: { error: SERVER_ERRORS.syncEventsTicketInvalid } });
  });

  it('refuses the ticket of a session signed out since it was made', async () => {
    const device = await userOnTwoDevices();
    const { ticket } = (await device.laptop.post('/sync/events/ticket')).body;
    expect((await device.laptop.post('/auth/logout')).status).toBe(204);
    const answer = await openEventStream(eventsUrl(`?ticket=${encodeURIComponent(ticket)}`));
    expect(answer).toMatchObject({ status: 401, body: { error: SERVER_ERRORS.unauthorized } });
  });
});

describe('a stream ends', () => {
  it('when its session is signed out (by the next heartbeat), telling the device why', async () => {
    const device = await userOnTwoDevices();
    const laptop = await stream(device.laptopToken);
    const phone = await stream(device.token);
    const signedOut = performance.now();
    expect((await device.laptop.post('/auth/logout')).status).toBe(204);
    const closed = await laptop.next('closed', { withinMs: 2 * HEARTBEAT_MS + 500 });
    expect(JSON.parse(closed.data)).toEqual({ reason: 'signed-out' });
    await laptop.ended;
    expect(closed.at - signedOut).toBeLessThan(2 * HEARTBEAT_MS + 200);
    // The phone's session still holds.
    await new Promise((resolve) => setTimeout(resolve, 2 * HEARTBEAT_MS));
    expect(phone.isEnded()).toBe(false);
  });

  it('when the account is deleted', async () => {
    const device = await userOnTwoDevices();
    const laptop = await stream(device.laptopToken);
    expect((await device.phone.post('/tags', { name: 'soon gone' })).status).toBe(201);
    await laptop.next('changed');
    expect((await device.phone.delete('/auth/account')).status).toBe(204);
    const closed = await laptop.next('closed', { withinMs: 2 * HEARTBEAT_MS + 500 });
    expect(JSON.parse(closed.data)).toEqual({ reason: 'signed-out' });
    await laptop.ended;
  });

  it('when the client goes away, leaving no stream and no listener behind', async () => {
    const { streams, signals } = server.app.liveUpdates;
    const before = signals.listenerCount();
    const three = [await stream(user.laptopToken), await stream(user.token), await stream(other.token)];
    expect(streams.size).toBe(3);
    expect(signals.listenerCount()).toBe(before + 3);
    for (const each of three) each.close();
    await until(() => streams.size === 0);
    expect(signals.listenerCount()).toBe(before);
    expect(streams.openFor(user.user.id)).toBe(0);
  });

  it('and with the last one goes the heartbeat timer, one for all streams, made again for the next', async () => {
    // Only the intervals are stood in for (the streams' heartbeat is the server's one interval): counted,
    // never fired, while everything else runs on real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { streams } = server.app.liveUpdates;
      const first = await stream(user.laptopToken);
      const second = await stream(other.token);
      expect(vi.getTimerCount()).toBe(1);
      first.close();
      await until(() => streams.size === 1);
      expect(vi.getTimerCount()).toBe(1);
      second.close();
      await until(() => streams.size === 0);
      expect(vi.getTimerCount()).toBe(0);
      const third = await stream(user.laptopToken);
      expect(vi.getTimerCount()).toBe(1);
      third.close();
      await until(() => streams.size === 0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('limits', () => {
  it(`keeps ${PER_USER} streams per user: one more closes the oldest, which is told it was replaced`, async () => {
    const first = await stream(user.laptopToken);
    const second = await stream(user.laptopToken);
    const third = await stream(user.token);
    const fourth = await stream(user.token);
    const closed = await first.next('closed');
    expect(JSON.parse(closed.data)).toEqual({ reason: 'replaced' });
    await first.ended;
    expect(server.app.liveUpdates.streams.openFor(user.user.id)).toBe(PER_USER);
    expect((await user.phone.post('/tags', { name: `capped ${Date.now()}` })).status).toBe(201);
    for (const open of [second, third, fourth]) await open.next('changed');
  });

  it(`holds ${NODE_MAX} streams on the node; beyond, 503 with Retry-After, unless it replaces one of the user's own`, async () => {
    const third = await signUp(api);
    for (let i = 0; i < PER_USER; i += 1) await stream(user.laptopToken);
    for (let i = 0; i < PER_USER; i += 1) await stream(other.token);
    expect(server.app.liveUpdates.streams.size).toBe(NODE_MAX);
    const refused = await openEventStream(eventsUrl(), { authorization: `Bearer ${third.token}` });
    expect(refused).toMatchObject({ status: 503, body: { error: SERVER_ERRORS.serverBusy } });
    expect(refused.headers['retry-after']).toBe('60');
    // The user at their own cap takes the place of their oldest stream: the node stays at its cap.
    await stream(user.token);
    expect(server.app.liveUpdates.streams.size).toBe(NODE_MAX);
    // Once one ends, there is room again.
    opened[PER_USER]?.close();
    await until(() => server.app.liveUpdates.streams.size === NODE_MAX - 1);
    await stream(third.token);
  });

  it('keeps both caps when many streams are asked for at once', async () => {
    const { streams } = server.app.liveUpdates;
    const third = await signUp(api);
    const accounts = [
      { id: user.user.id, token: user.laptopToken },
      { id: other.user.id, token: other.token },
      { id: third.user.id, token: third.token },
    ];
    // Three users asking for one stream more than their cap each, all at once: twelve for a node of six.
    const answers = await Promise.all(
      accounts.flatMap(({ token }) =>
        Array.from({ length: PER_USER + 1 }, () =>
          openEventStream(eventsUrl(), { authorization: `Bearer ${token}` }),
        ),
      ),
    );
    const open = answers.filter((answer): answer is OpenStream => answer.status === 200);
    opened.push(...open);
    // Every answer is in, so the server has taken or refused each: never more than its caps.
    expect(streams.size).toBe(NODE_MAX);
    for (const { id } of accounts) expect(streams.openFor(id)).toBeLessThanOrEqual(PER_USER);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(answer.status).toBe(503);
    // Those open beyond the node's cap were each the oldest of a user at theirs, told so.
    const replaced = open.length - NODE_MAX;
    await until(() => open.filter((each) => each.isEnded()).length === replaced);
    for (const each of open.filter((stream) => stream.isEnded()))
      expect(JSON.parse((await each.next('closed')).data)).toEqual({ reason: 'replaced' });
  });
});

it('closing the server ends its streams, telling each device, and waits for none of them', async () => {
  const own = await startTestServer({ env: { SYNC_EVENTS_HEARTBEAT_MS: '60000' } });
  const account = await signUp(new ApiClient(own.url));
  const open = await openedStream(`${own.url}/api/sync/events`, { authorization: `Bearer ${account.token}` });
  await open.next('ready');
  const started = performance.now();
  await own.close();
  expect(performance.now() - started).toBeLessThan(3000);
  expect(JSON.parse((await open.next('closed')).data)).toEqual({ reason: 'shutdown' });
  await open.ended;
});

describe('a node on its own process', () => {
  const STREAMS = 1000;
  let child: ChildProcess | undefined;
  let dataDir = '';
  afterAll(async () => {
    if (child?.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The server process's resident memory, in KiB. */
  const residentKib = (pid: number) =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

  async function healthMs(url: string): Promise<number> {
    const started = performance.now();
    const answer = await fetch(`${url}/api/health`);
    expect(answer.status).toBe(200);
    await answer.text();
    return performance.now() - started;
  }

  it(`holds ${STREAMS} idle streams at once while GET /api/health answers at once, and hears a write on each`, async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-streams-'));
    const port = await freeLocalPort();
    const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
    child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/src/main.ts'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        JWT_SECRET,
        LOG_LEVEL: 'silent',
        SYNC_EVENTS_PER_USER: String(STREAMS),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pid = child.pid ?? 0;
    const url = `http://127.0.0.1:${port}`;
    await new Promise<void>((ready, fail) => {
      child?.stdout?.on(
        'data',
        (chunk: Buffer) => chunk.toString().includes('Lectern is running') && ready(),
      );
      child?.once('exit', (code) => fail(new Error(`the server stopped (${code})`)));
    });
    const reader = await signUp(new ApiClient(url));
    const idleHealth = await healthMs(url);
    const before = residentKib(pid);

    const streams: OpenStream[] = [];
    for (let batch = 0; batch < STREAMS; batch += 100) {
      const opening = Array.from({ length: 100 }, () =>
        openedStream(`${url}/api/sync/events`, { authorization: `Bearer ${reader.token}` }),
      );
      streams.push(...(await Promise.all(opening)));
    }
    await Promise.all(streams.map((open) => open.next('ready', { withinMs: 10_000 })));
    // Heap settled after the burst of opening: what stays is what the streams hold.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const held = residentKib(pid);
    const healthTimes: number[] = [];
    for (let i = 0; i < 10; i += 1) healthTimes.push(await healthMs(url));
    const slowestHealth = Math.max(...healthTimes);

    const sent = performance.now();
    expect((await reader.client.post('/tags', { name: 'to every stream' })).status).toBe(201);
    const heard = await Promise.all(streams.map((open) => open.next('changed', { withinMs: 5000 })));
    const lastHeard = Math.max(...heard.map((event) => event.at)) - sent;

    console.log(
      `${STREAMS} idle streams: server RSS ${(before / 1024).toFixed(1)} → ${(held / 1024).toFixed(1)} MiB ` +
        `(${((held - before) / STREAMS).toFixed(1)} KiB per stream); GET /api/health ${idleHealth.toFixed(1)} ms ` +
        `idle, at most ${slowestHealth.toFixed(1)} ms with them open; one write heard on all of them within ` +
        `${lastHeard.toFixed(0)} ms`,
    );
    expect(streams.every((open) => !open.isEnded())).toBe(true);
    expect(slowestHealth).toBeLessThan(500);
    expect(lastHeard).toBeLessThan(2000);
    expect((held - before) / STREAMS).toBeLessThan(100);

    // SIGTERM: the server closes every stream and exits, rather than waiting on them.
    const stopping = performance.now();
    child.kill('SIGTERM');
    await once(child, 'exit');
    expect(performance.now() - stopping).toBeLessThan(5000);
    await Promise.all(streams.map((open) => open.ended));
  }, 120_000);
});
