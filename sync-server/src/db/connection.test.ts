// The database contract on SQLite (db/connection.ts): one transaction at a time in the order asked, reads
// outside a transaction that never see another request's uncommitted writes, savepoints for nested
// transactions, and a clear error instead of a hang when code inside a transaction uses the Db itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDb } from './connection';

let folder: string;
let db: SqliteDb;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'lectern-connection-'));
  db = openSqlite(join(folder, 'lectern.sqlite'));
});

afterEach(async () => {
  await db.close();
  rmSync(folder, { recursive: true, force: true });
});

const addUser = (id: string) =>
  sql`INSERT INTO users (id, email, created_at) VALUES (${id}, ${`${id}@example.com`}, '2030-01-01T00:00:00.000Z')`;
const userIds = async () =>
  (await db.all<{ id: string }>(sql`SELECT id FROM users ORDER BY id`)).map((row) => row.id);

describe('transactions on SQLite', () => {
  it('run one at a time, in the order they were asked for', async () => {
    const steps: string[] = [];
    let releaseFirst!: () => void;
    const firstMayEnd = new Promise<void>((resolve) => (releaseFirst = resolve));
    const first = db.transaction(async (tx) => {
      steps.push('first begins');
      await tx.run(addUser('u1'));
      await firstMayEnd;
      steps.push('first ends');
    });
    const second = db.transaction(async (tx) => {
      steps.push('second begins');
      await tx.run(addUser('u2'));
    });
    const write = db.run(addUser('u3')).then(() => steps.push('write outside'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(steps).toEqual(['first begins']);
    releaseFirst();
    await Promise.all([first, second, write]);
    expect(steps).toEqual(['first begins', 'first ends', 'second begins', 'write outside']);
    expect(await userIds()).toEqual(['u1', 'u2', 'u3']);
  });

  it('keep their writes from readers outside until they commit', async () => {
    let releaseWriter!: () => void;
    const writerMayCommit = new Promise<void>((resolve) => (releaseWriter = resolve));
    const writing = db.transaction(async (tx) => {
      await tx.run(addUser('u1'));
      expect(await tx.all(sql`SELECT id FROM users`)).toEqual([{ id: 'u1' }]);
      await writerMayCommit;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await userIds()).toEqual([]);
    expect(await db.orm.select().from(db.tables.users)).toEqual([]);
    releaseWriter();
    await writing;
    expect(await userIds()).toEqual(['u1']);
  });

  it('roll back everything when the work throws, and a nested one alone when it throws', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.run(addUser('u1'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await userIds()).toEqual([]);

    await db.transaction(async (tx) => {
      await tx.run(addUser('kept'));
      await expect(
        tx.transaction(async (inner) => {
          await inner.run(addUser('rolled-back'));
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      await tx.transaction(async (inner) => void (await inner.run(addUser('nested'))));
    });
    expect(await userIds()).toEqual(['kept', 'nested']);
    expect(db.sqlite.inTransaction).toBe(false);
  });

  it('refuse the Db itself inside a transaction, instead of waiting forever on their own turn', async () => {
    await expect(db.transaction(async () => await db.transaction(async () => 1))).rejects.toThrow(
      'Inside a transaction, use its handle (tx), not the database itself.',
    );
    await expect(db.transaction(async () => await db.get(sql`SELECT 1`))).rejects.toThrow(
      'Inside a transaction, use its handle (tx)',
    );
    // The handle of an ended transaction can't be used either.
    let kept: Parameters<Parameters<typeof db.transaction>[0]>[0] | undefined;
    await db.transaction(async (tx) => void (kept = tx));
    await expect(kept!.run(addUser('late'))).rejects.toThrow('This transaction has ended');
    expect(await userIds()).toEqual([]);
  });

  it('refuse a builder write on the Db outside a transaction (it reads only)', async () => {
    await expect(
      Promise.resolve().then(() =>
        db.orm.insert(db.tables.users).values({ id: 'u1', email: 'u1@example.com', createdAt: 'now' }).run(),
      ),
    ).rejects.toThrow(/readonly|read-only|query_only/i);
    expect(await userIds()).toEqual([]);
  });
});
