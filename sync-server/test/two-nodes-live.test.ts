// Issue 15, two server processes on one PostgreSQL: a write made through node A is in the change feed read
// from node B at once, and a device whose event stream is on node B hears of it (LISTEN/NOTIFY carries the
// signal between the nodes). PostgreSQL only: on SQLite a node's signal stays in its own process, and
// several nodes are a PostgreSQL deployment (docs/deploy.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server';
import { serverDatabaseEnv, testEngine } from '../src/testing/test-database';
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
});
