// The persisted job queue on a fresh database of the run's engine (an in-memory SQLite or PostgreSQL), built
// by the real migrations: the same queue runs on both.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connection';
import { openTestDatabase } from '../testing/test-database';
import { enqueueJob, JobQueue, RetryableJobError, type JobRow } from './job-queue';
import { sql } from 'drizzle-orm';

let db: Db;
const queues: JobQueue[] = [];

async function addUser(id: string) {
  await db.run(sql`INSERT INTO users (id, email, created_at) VALUES (${id}, ${`${id}@example.com`}, ${'x'})`);
}

function queue(options: Partial<ConstructorParameters<typeof JobQueue>[1]> = {}) {
  const created = new JobQueue(db, {
    concurrency: 4,
    perUser: 2,
    maxAttempts: 3,
    retryBaseMs: 10,
    pollMs: 20,
    ...options,
  });
  queues.push(created);
  return created;
}

const statusOf = async (key: string) =>
  (await db.get(sql`SELECT status, attempts, last_error FROM jobs WHERE key = ${key}`)) as {
    status: string;
    attempts: number;
    last_error: string | null;
  };

beforeEach(async () => {
  db = await openTestDatabase();
  await addUser('ann');
  await addUser('bob');
});

afterEach(async () => {
  await Promise.all(queues.splice(0).map((item) => item.stop()));
  await db.close();
});

describe('JobQueue', () => {
  it('runs each queued job once, and the same kind and key is queued only once', async () => {
    const runs: string[] = [];
    const jobs = queue();
    jobs.handle('work', async (job) => {
      runs.push(job.key);
    });
    await enqueueJob(db, { kind: 'work', key: 'a', userId: 'ann' });
    await enqueueJob(db, { kind: 'work', key: 'a', userId: 'ann' });
    await enqueueJob(db, { kind: 'work', key: 'b', userId: 'bob' });
    await jobs.start();
    await jobs.idle();
    expect(runs.sort()).toEqual(['a', 'b']);
    expect(await statusOf('a')).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('retries a retryable failure with backoff, then fails it for good on the last try', async () => {
    const tries: { at: number; lastTry: boolean }[] = [];
    const jobs = queue({ retryBaseMs: 40 });
    jobs.handle('flaky', async (_job, { lastTry }) => {
      tries.push({ at: Date.now(), lastTry });
      throw new RetryableJobError('the site is busy');
    });
    await enqueueJob(db, { kind: 'flaky', key: 'x', userId: 'ann' });
    await jobs.start();
    await jobs.idle();
    expect(tries.map((item) => item.lastTry)).toEqual([false, false, true]);
    // At least 40 ms, then at least 80 ms: each wait twice the one before (a busy machine only adds to them).
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(35);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(75);
    expect(await statusOf('x')).toEqual({ status: 'failed', attempts: 3, last_error: 'the site is busy' });
  });

  it('fails any other error at once', async () => {
    const jobs = queue();
    let runs = 0;
    jobs.handle('broken', async () => {
      runs += 1;
      throw new Error('not a page');
    });
    await enqueueJob(db, { kind: 'broken', key: 'y', userId: 'ann' });
    await jobs.start();
    await jobs.idle();
    expect(runs).toBe(1);
    expect(await statusOf('y')).toMatchObject({ status: 'failed', last_error: 'not a page' });
  });

  it('runs at most perUser jobs of one user at once, and another user’s meanwhile', async () => {
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const jobs = queue({ perUser: 2, concurrency: 3 });
    jobs.handle('slow', async (job: JobRow) => {
      order.push(job.user_id);
      if (job.user_id === 'ann') {
        running += 1;
        most = Math.max(most, running);
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
      if (job.user_id === 'ann') running -= 1;
    });
    for (let index = 0; index < 6; index += 1)
      await enqueueJob(db, { kind: 'slow', key: `ann-${index}`, userId: 'ann' });
    await enqueueJob(db, { kind: 'slow', key: 'bob-0', userId: 'bob' });
    await jobs.start();
    await jobs.idle();
    expect(most).toBe(2);
    // Bob's one job does not wait for Ann's six.
    expect(order.indexOf('bob')).toBeLessThan(3);
  });

  it('starts a job a request waits for while its user runs as many background jobs as perUser allows', async () => {
    const jobs = queue({ perUser: 2, concurrency: 4 });
    const started: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    jobs.handle('background', async (job: JobRow) => {
      started.push(job.key);
      await held;
    });
    jobs.handle(
      'save',
      async (job: JobRow) => {
        started.push(job.key);
      },
      { waitedOn: true },
    );
    for (const key of ['images-1', 'images-2', 'images-3'])
      await enqueueJob(db, { kind: 'background', key, userId: 'ann' });
    await jobs.start();
    try {
      await expect.poll(() => started.length).toBe(2);
      await enqueueJob(db, { kind: 'save', key: 'save-1', userId: 'ann' });
      jobs.wake();
      // The save runs now, beside Ann's two held jobs; her third background job still waits for a slot.
      await expect.poll(async () => (await statusOf('save-1')).status).toBe('done');
      expect(started).not.toContain('images-3');
    } finally {
      release();
    }
    await jobs.idle();
    expect(started).toContain('images-3');
  });

  it('takes the oldest due job among every user and kind, a job a request waits for first, none before it is due', async () => {
    await addUser('cat');
    const jobs = queue({ concurrency: 1 });
    const order: string[] = [];
    const note = async (job: JobRow) => {
      order.push(job.key);
    };
    jobs.handle('images', note);
    jobs.handle('fetch', note);
    jobs.handle('save', note, { waitedOn: true });
    // Queued one after another (each run_after later than the last), users and kinds interleaved.
    const queued = [
      ['cat', 'fetch', 'cat-fetch-1'],
      ['ann', 'images', 'ann-images-1'],
      ['bob', 'fetch', 'bob-fetch-1'],
      ['ann', 'fetch', 'ann-fetch-1'],
      ['cat', 'images', 'cat-images-1'],
      ['bob', 'save', 'bob-save-1'],
      ['ann', 'images', 'ann-images-2'],
      ['cat', 'save', 'cat-save-1'],
    ] as const;
    for (const [userId, kind, key] of queued) {
      await enqueueJob(db, { kind, key, userId });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    // Due only in an hour: left alone.
    await enqueueJob(db, { kind: 'fetch', key: 'ann-later', userId: 'ann' });
    await db.run(
      sql`UPDATE jobs SET run_after = ${new Date(Date.now() + 3_600_000).toISOString()} WHERE key = 'ann-later'`,
    );
    await jobs.start();
    await expect.poll(() => order.length).toBe(queued.length);
    expect(order).toEqual([
      'bob-save-1',
      'cat-save-1',
      'cat-fetch-1',
      'ann-images-1',
      'bob-fetch-1',
      'ann-fetch-1',
      'cat-images-1',
      'ann-images-2',
    ]);
    expect(await statusOf('ann-later')).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('takes up again, on start, a job a stopped process left running', async () => {
    await enqueueJob(db, { kind: 'work', key: 'left', userId: 'ann' });
    await db.run(sql`UPDATE jobs SET status = 'running', attempts = 1 WHERE key = 'left'`);
    const runs: string[] = [];
    const jobs = queue();
    jobs.handle('work', async (job) => {
      runs.push(job.key);
    });
    await jobs.start();
    await jobs.idle();
    expect(runs).toEqual(['left']);
    expect(await statusOf('left')).toMatchObject({ status: 'done', attempts: 2 });
  });
});
