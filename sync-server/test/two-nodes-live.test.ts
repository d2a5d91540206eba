// Issue 15, two server processes on one PostgreSQL: a write made through node A is in the change feed read
// from node B at once, and a device whose event stream is on node B hears of it (LISTEN/NOTIFY carries the
// signal between the nodes). PostgreSQL only: on SQLite a node's signal stays in its own process, and
// several nodes are a PostgreSQL deployment (docs/deploy.md).
import { sql } from 'drizzle-orm';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { openServerDatabase, serverDatabaseEnv, testEngine } from '../src/testing/test-database';
import { ApiClient, signUp } from './support/api-client';
import { openedStream, type OpenStream } from './support/event-stream';
import { startServerProcess, type ServerProcess } from './support/server-process';

let nodeA: TestServer;
let nodeB: ServerProcess;
const streams: OpenStream[] = [];

beforeAll(async () => {
  if (testEngine() !== 'postgres') throw new Error('two-nodes-live.test.ts runs in the PostgreSQL project');
  nodeA = await startTestServer();
  nodeB = await startServerProcess({
    ...serverDatabaseEnv(nodeA.dataDir),
    DATA_DIR: nodeA.dataDir,
    JWT_SECRET: 'test-secret-'.padEnd(48, 'x'),
  });
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  await nodeB?.stop();
  await nodeA?.close();
});

describe('two nodes on one PostgreSQL', () => {
  it('serves a write made on node A in the feed read from node B at once', async () => {
    const reader = await signUp(new ApiClient(nodeA.url));
    const onB = new ApiClient(nodeB.url, reader.token);
    const before = (await onB.get('/sync/changes?since=0')).body.cursor as number;
    for (let i = 0; i < 10; i += 1) {
      const created = await reader.client.post('/tags', { name: `from A ${i}` });
      expect(created.status).toBe(201);
      // The very next read on the other node has it: no cache, no replication delay.
      const feed = await onB.get(`/sync/changes?since=${before}`);
      expect(feed.status).toBe(200);
      const tags = feed.body.changes.filter((change: { entity: string }) => change.entity === 'tag');
      expect(tags.map((change: { row: { name: string } }) => change.row.name)).toContain(`from A ${i}`);
      expect(tags).toHaveLength(i + 1);
    }
  });

  it('tells a device whose stream is on node B of a write made on node A, well within a second', async () => {
    const reader = await signUp(new ApiClient(nodeA.url));
    const laptop = await openedStream(`${nodeB.url}/api/sync/events`, {
      authorization: `Bearer ${reader.token}`,
    });
    streams.push(laptop);
    await laptop.next('ready');
    // Another reader's writes are not this device's business.
    const stranger = await signUp(new ApiClient(nodeA.url));
    const latencies: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const from = laptop.events.length;
      expect((await stranger.client.post('/tags', { name: `elsewhere ${i}` })).status).toBe(201);
      const sent = performance.now();
      expect((await reader.client.post('/tags', { name: `heard ${i}` })).status).toBe(201);
      const heard = await laptop.next('changed', { from, withinMs: 1000 });
      latencies.push(heard.at - sent);
      expect(laptop.events.slice(from).filter((event) => event.event === 'changed')).toHaveLength(1);
    }
    latencies.sort((a, b) => a - b);
    const p95 = latencies[Math.ceil(latencies.length * 0.95) - 1] ?? 0;
    console.log(
      `a write on node A heard on node B: p50 ${latencies[10]?.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
    );
    expect(p95).toBeLessThan(1000);
  });

  it("logs the loss of a node's listening connection, listens again, and still hears the other node", async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    // A third node on the same database, its log kept.
    const nodeC = await startTestServer({
      env: { ...serverDatabaseEnv(nodeA.dataDir), DATA_DIR: nodeA.dataDir },
      logStream,
    });
    try {
      const reader = await signUp(new ApiClient(nodeA.url));
      const phone = await openedStream(`${nodeC.url}/api/sync/events`, {
        authorization: `Bearer ${reader.token}`,
      });
      streams.push(phone);
      await phone.next('ready');
      // PostgreSQL ends node C's listening connection, as a restart or a failover would.
      const beforeCut = phone.events.length;
      const db = await openServerDatabase(nodeA.dataDir);
      try {
        await db.run(
          // Every node's listening connection (they all listen again): node C's log is the one read.
          sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE application_name = 'lectern-feed-signals' AND query LIKE 'LISTEN%'
                AND datname = current_database()`,
        );
      } finally {
        await db.close();
      }
      const until = Date.now() + 10_000;
      while (!lines.some((line) => line.includes('"msg":"feed signals"'))) {
        if (Date.now() > until) throw new Error(`no error logged: ${lines.join('')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Listening again within its backoff, the node tells its devices to pull what they may have missed.
      await phone.next('changed', { from: beforeCut, withinMs: 5000 });
      // And a write on node A reaches the device on node C again.
      const from = phone.events.length;
      expect((await reader.client.post('/tags', { name: 'after the cut' })).status).toBe(201);
      await phone.next('changed', { from, withinMs: 5000 });
    } finally {
      await nodeC.close();
    }
  });
});
