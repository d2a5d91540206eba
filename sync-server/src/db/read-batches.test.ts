import { describe, expect, it } from 'vitest';
import { batchedReads } from './read-batches';

/** A read that answers each input doubled once released, noting every batch it was given. */
function heldRead() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const read = (inputs: readonly number[]) => {
    batches.push([...inputs]);
    return new Promise<number[]>((resolve) => releases.push(() => resolve(inputs.map((n) => n * 2))));
  };
  return { read, batches, releases };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedReads', () => {
  it('asks once for what is asked in the same turn, and answers each its own, in order', async () => {
    const { read, batches, releases } = heldRead();
    const ask = batchedReads(read);
    const answers = Promise.all([1, 2, 3].map(ask));
    await turn();
    expect(batches).toEqual([[1, 2, 3]]);
    releases[0]!();
    expect(await answers).toEqual([2, 4, 6]);
  });

  it('sends a lone ask at once, alone', async () => {
    const { read, batches, releases } = heldRead();
    const ask = batchedReads(read);
    const answer = ask(7);
    await turn();
    expect(batches).toEqual([[7]]);
    releases[0]!();
    expect(await answer).toBe(14);
  });

  it('keeps at most maxInFlight reads out, the asks meanwhile waiting together, at most maxBatch a read', async () => {
    const { read, batches, releases } = heldRead();
    const ask = batchedReads(read, { maxBatch: 3, maxInFlight: 2 });
    const first = ask(1);
    await turn();
    const second = ask(2);
    await turn();
    // Both reads are out: these wait, whatever the turn.
    const waiting = [3, 4, 5, 6, 7].map(ask);
    await turn();
    expect(batches).toEqual([[1], [2]]);
    releases[0]!();
    expect(await first).toBe(2);
    await turn();
    expect(batches).toEqual([[1], [2], [3, 4, 5]]);
    releases[1]!();
    releases[2]!();
    await second;
    await turn();
    expect(batches).toEqual([[1], [2], [3, 4, 5], [6, 7]]);
    releases[3]!();
    expect(await Promise.all(waiting)).toEqual([6, 8, 10, 12, 14]);
  });

  it('fails only the asks of a read that failed, and goes on', async () => {
    let calls = 0;
    const ask = batchedReads(async (inputs: readonly number[]) => {
      calls += 1;
      if (calls === 1) throw new Error('the database went away');
      return inputs.map((n) => n + 1);
    });
    const failed = Promise.allSettled([ask(1), ask(2)]);
    expect((await failed).map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await ask(3)).toBe(4);
  });

  it('refuses an answer that does not match its asks, rather than answering one with another’s row', async () => {
    const ask = batchedReads(async (inputs: readonly number[]) => inputs.slice(1));
    const answers = await Promise.allSettled([ask(1), ask(2)]);
    expect(answers.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
