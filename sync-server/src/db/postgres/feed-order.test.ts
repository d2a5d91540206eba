// The change feed's promise on PostgreSQL, where transactions commit out of sequence order: a device that
// follows its feed with `seq > cursor` never skips a change, with writers on two nodes at once.
import { nowIso } from '@lectern/shared-schema';
import { and, eq, gt, sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, stopTestCluster } from '../../testing/postgres-cluster';
import type { Db } from '../database';
import { openPostgres, type RecordFeed } from './connection';

afterAll(stopTestCluster);

const READER = 'reader-1';

/** Waits up to `upTo` ms, at random: commits then land in a different order than their seqs were taken. */
const jitter = (upTo: number) => sleep(Math.random() * upTo);

/**
 * What services/change-log.ts records for each touched entity: its earlier changes dropped, one new row.
 * `pause` runs after the rows are written and before COMMIT, where a slow transaction sits with its seq taken.
 */
function feedRecorder(pause: () => Promise<unknown>): RecordFeed {
  return async (tx, touched) => {
    const { changeLog } = tx.tables;
    for (const entry of touched) {
      await tx.orm
        .delete(changeLog)
        .where(
          and(
            eq(changeLog.userId, entry.userId),
            eq(changeLog.entity, entry.entity),
            eq(changeLog.entityId, entry.id),
          ),
        );
      await tx.orm.insert(changeLog).values({
        userId: entry.userId,
        entity: entry.entity,
        entityId: entry.id,
        op: entry.deleted ? 'delete' : 'upsert',
        row: entry.deleted ? null : '{}',
        createdAt: nowIso(),
      });
    }
    await pause();
  };
}

async function saveArticle(node: Db, id: string): Promise<void> {
  await node.transaction(async (tx) => {
    const at = nowIso();
    await tx.orm.insert(tx.tables.articles).values({
      id,
      userId: READER,
      url: `https://example.com/${id}`,
      title: id,
      articleType: 'web',
      createdAt: at,
      updatedAt: at,
    });
  });
}

/** A device following the feed: reads `seq > cursor`, moves the cursor to the last seq it read. */
function follow(node: Db) {
  let cursor = 0;
  const seen: string[] = [];
  const poll = async () => {
    const { changeLog } = node.tables;
    const rows = await node.orm
      .select({ seq: changeLog.seq, entityId: changeLog.entityId })
      .from(changeLog)
      .where(and(eq(changeLog.userId, READER), gt(changeLog.seq, cursor)))
      .orderBy(changeLog.seq);
    for (const row of rows) seen.push(row.entityId);
    cursor = rows.at(-1)?.seq ?? cursor;
  };
  return { poll, seen };
}

describe('the change feed on PostgreSQL', () => {
  let nodes: Db[] = [];

  async function openNode(url: string, pause: () => Promise<unknown>): Promise<Db> {
    const node = await openPostgres(url, { recordFeed: feedRecorder(pause) });
    nodes.push(node);
    return node;
  }

  beforeEach(() => {
    nodes = [];
  });
  afterEach(async () => {
    await Promise.all(nodes.map((node) => node.close()));
  });

  it('holds a second writer of the same user until the first commits, so its seq is never read first', async () => {
    const url = await createTestDatabase();
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let paused!: () => void;
    const firstPaused = new Promise<void>((resolve) => (paused = resolve));
    // Node A's transaction takes its seq, then waits before COMMIT; node B's writes in the meantime.
    const nodeA = await openNode(url, () => (paused(), gate));
    const nodeB = await openNode(url, async () => {});
    const device = follow(await openNode(url, async () => {}));
    await nodeA.run(
      sql`INSERT INTO users (id, email, created_at) VALUES (${READER}, 'r@example.com', ${nowIso()})`,
    );

    const first = saveArticle(nodeA, 'first');
    await firstPaused;
    let secondDone = false;
    const second = saveArticle(nodeB, 'second').then(() => (secondDone = true));
    try {
      await sleep(300);
      await device.poll();
      // B waits on the reader's feed lock: nothing of B's is readable while A's seq is uncommitted.
      expect(secondDone).toBe(false);
      expect(device.seen).toEqual([]);
    } finally {
      openGate();
    }
    await Promise.all([first, second]);
    await device.poll();
    expect(device.seen).toEqual(['first', 'second']);
  });

  it('lets a device following the feed see every change written concurrently on two nodes', async () => {
    const url = await createTestDatabase();
    const nodeA = await openNode(url, () => jitter(4));
    const nodeB = await openNode(url, () => jitter(4));
    const device = follow(await openNode(url, async () => {}));
    await nodeA.run(
      sql`INSERT INTO users (id, email, created_at) VALUES (${READER}, 'r@example.com', ${nowIso()})`,
    );

    const written: string[] = [];
    const writer = async (node: Db, name: string) => {
      for (let n = 0; n < 25; n++) {
        const id = `${name}-${n}`;
        await saveArticle(node, id);
        written.push(id);
      }
    };
    let writing = true;
    const following = (async () => {
      while (writing) {
        await device.poll();
        await sleep(1);
      }
    })();
    await Promise.all(
      ['a1', 'a2', 'a3', 'a4']
        .map((name) => writer(nodeA, name))
        .concat(['b1', 'b2', 'b3', 'b4'].map((name) => writer(nodeB, name))),
    );
    writing = false;
    await following;
    await device.poll();

    const { changeLog } = nodeA.tables;
    const feed = await nodeA.orm
      .select({ entityId: changeLog.entityId })
      .from(changeLog)
      .where(eq(changeLog.userId, READER));
    expect(written).toHaveLength(200);
    expect(new Set(feed.map((row) => row.entityId))).toEqual(new Set(written));
    // Read in seq order as the rows were committed, nothing skipped, nothing twice.
    expect([...device.seen].sort()).toEqual([...written].sort());
  });
});
