// Gives the page back between two small batches of background work, so input and frames come first:
// scheduler.yield where the browser has it, else an idle callback, else a task.

interface SchedulerLike {
  yield?: () => Promise<void>;
}

export async function yieldToUi(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: SchedulerLike }).scheduler;
  if (typeof scheduler?.yield === 'function') {
    // An idle period first when there is one: background downloads never compete with a frame.
    if (typeof globalThis.requestIdleCallback === 'function')
      await new Promise<void>((resolve) => globalThis.requestIdleCallback(() => resolve(), { timeout: 200 }));
    else await scheduler.yield();
    return;
  }
  if (typeof globalThis.requestIdleCallback === 'function') {
    await new Promise<void>((resolve) => globalThis.requestIdleCallback(() => resolve(), { timeout: 200 }));
    return;
  }
  await new Promise<void>((resolve) => setTimeout(resolve, 0));
}

/**
 * Gives the page back for one turn only (input and a due frame go first), without waiting for it to be
 * idle: for work the reader is waiting on, like the cards of a first sync.
 */
export async function yieldTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: SchedulerLike }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  await new Promise<void>((resolve) => setTimeout(resolve, 0));
}
