// A transaction PostgreSQL ended to break a deadlock runs again; any other failure is thrown at once.
import { describe, expect, it } from 'vitest';
import { isDeadlock, retryingDeadlocks } from './deadlocks';

/** As drizzle throws it: its own error, the driver's (with the SQLSTATE) as its cause. */
function driverError(code: string): Error {
  return new Error('Failed query: delete from "users"', { cause: Object.assign(new Error('x'), { code }) });
}

describe('retryingDeadlocks', () => {
  it('knows a deadlock by its code, also as the cause of the error thrown', () => {
    expect(isDeadlock(driverError('40P01'))).toBe(true);
    expect(isDeadlock(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(true);
    expect(isDeadlock(driverError('23505'))).toBe(false);
    expect(isDeadlock('40P01')).toBe(false);
  });

  it('runs a transaction ended by a deadlock again, and answers what the run that went through answered', async () => {
    let runs = 0;
    const answer = await retryingDeadlocks(async () => {
      runs += 1;
      if (runs < 3) throw driverError('40P01');
      return 'deleted';
    });
    expect(answer).toBe('deleted');
    expect(runs).toBe(3);
  });

  it('throws any other failure at once, and a deadlock once every attempt was ended by one', async () => {
    let runs = 0;
    await expect(
      retryingDeadlocks(async () => {
        runs += 1;
        throw driverError('23505');
      }),
    ).rejects.toThrow('Failed query');
    expect(runs).toBe(1);
    runs = 0;
    await expect(
      retryingDeadlocks(async () => {
        runs += 1;
        throw driverError('40P01');
      }, 2),
    ).rejects.toThrow('Failed query');
    expect(runs).toBe(2);
  });
});
