// PostgreSQL breaks a deadlock by ending one of the transactions that wait on each other (SQLSTATE 40P01);
// the other goes on. The one ended changed nothing, so it can simply run again. SQLite has one writer at a
// time and never deadlocks.

/** PostgreSQL's code for a transaction it ended to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';

/** Whether `error` (or what caused it: drizzle wraps the driver's error) is PostgreSQL ending a deadlock. */
export function isDeadlock(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    if ((cause as { code?: unknown }).code === DEADLOCK_DETECTED) return true;
    cause = cause.cause;
  }
  return false;
}

/** Runs `transaction` again when PostgreSQL ended it to break a deadlock, at most `attempts` times in all. */
export async function retryingDeadlocks<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
    }
  }
}
