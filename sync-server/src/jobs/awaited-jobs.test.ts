// A request waiting for its job (saves, screenshots) reads the job's row when it has reason to: when the job
// ends on this node, or when the user's feed moves (the job wrote an article, on any node), and otherwise
// every quarter of a second; not every 25 ms as it did. On the run's engine (SQLite or PostgreSQL).
import { SERVER_ERRORS, type Article } from '@lectern/shared-schema';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { contextPerTest } from '../testing/service-context';
import { queueAndAwait, writeOutcome } from './awaited-jobs';
import { LOST_JOB } from './job-runner';

const t = contextPerTest(['ann']);
const KIND = 'slow_job';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The context's database, counting the row reads of the waiting request (drizzle's select). */
function countingReads(db: Db) {
  const counted = { reads: 0 };
  const orm = new Proxy(db.orm, {
    get(target, property, receiver) {
      if (property === 'select') counted.reads += 1;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const wrapped = new Proxy(db, {
    get(target, property) {
      if (property === 'orm') return orm;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: wrapped, counted };
}

describe('a request waiting for its job', () => {
  it('answers as soon as the job ends on this node, having read its row a few times, not every 25 ms', async () => {
    let endedAt = 0;
    t.ctx.jobs.handle(
      KIND,
      async (job) => {
        await sleep(1_000);
        const refusal = { status: 400, error: 'Not this page', headers: {} };
        await t.ctx.db.transaction((tx) => writeOutcome(tx, job.id, {}, refusal));
        endedAt = performance.now();
      },
      { waitedOn: true },
    );
    await t.ctx.jobs.start();
    const { db, counted } = countingReads(t.ctx.db);
    const job = { kind: KIND, key: 'ann/1', userId: 'ann', payload: {} };
    await expect(queueAndAwait({ ...t.ctx, db }, job)).rejects.toMatchObject({
      statusCode: 400,
      message: 'Not this page',
    });
    const answeredIn = performance.now() - endedAt;
    console.log(
      `answered ${answeredIn.toFixed(0)} ms after the job ended; ${counted.reads} reads of its row`,
    );
    expect(answeredIn).toBeLessThan(150);
    // One a quarter second while it ran (about 4), the first and the last: far from 40.
    expect(counted.reads).toBeLessThanOrEqual(10);
  });

  it('answers as soon as the user’s feed moves when another node wrote the job’s article', async () => {
    // No runner started here: the job is another node's. It writes the article and the outcome, and its
    // commit moves the user's feed, which the signal carries to this node.
    const job = { kind: KIND, key: 'ann/2', userId: 'ann', payload: {} };
    const { db, counted } = countingReads(t.ctx.db);
    const answer = queueAndAwait({ ...t.ctx, db }, job);
    await sleep(700);
    const article = { id: 'elsewhere', title: 'Saved elsewhere' } as unknown as Article;
    await t.ctx.db.transaction(async (tx) => {
      const row = await tx.get<{ id: number }>(
        sql`SELECT id FROM jobs WHERE kind = ${KIND} AND key = 'ann/2'`,
      );
      await tx.run(sql`UPDATE jobs SET status = 'done' WHERE id = ${row?.id ?? 0}`);
      await writeOutcome(tx, row?.id ?? 0, {}, { article, alreadySaved: false });
    });
    const wroteAt = performance.now();
    t.ctx.live.signals.publish(['ann']);
    expect(await answer).toEqual({ article, alreadySaved: false });
    expect(performance.now() - wroteAt).toBeLessThan(150);
    expect(counted.reads).toBeLessThanOrEqual(6);
  });

  it('answers 503 busy, at once, when every try of its job expired', async () => {
    const job = { kind: KIND, key: 'ann/3', userId: 'ann', payload: {} };
    const answer = queueAndAwait(t.ctx, job);
    // Failed once its row is written (under load that takes more than the 100 ms this once slept).
    const queued = sql`SELECT 1 AS found FROM jobs WHERE kind = ${KIND} AND key = 'ann/3'`;
    await expect.poll(() => t.ctx.db.get(queued)).toBeDefined();
    await t.ctx.db.transaction((tx) =>
      tx.run(
        sql`UPDATE jobs SET status = 'failed', last_error = ${LOST_JOB} WHERE kind = ${KIND} AND key = 'ann/3'`,
      ),
    );
    await expect(answer).rejects.toMatchObject({ statusCode: 503, message: SERVER_ERRORS.serverBusy });
  });
});
