// One tab syncs at a time: a Web Lock held for the whole push and pull. Where the Web Locks API is
// missing (tests in Node, very old browsers) a lock within this page does the same for its callers.

export type SyncLock = <T>(run: () => Promise<T>) => Promise<T>;

export const SYNC_LOCK_NAME = 'lectern-sync';

export function inPageLock(): SyncLock {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(run: () => Promise<T>) => {
    const result = tail.then(run, run);
    tail = result.catch(() => undefined);
    return result;
  };
}

export function webLock(name: string = SYNC_LOCK_NAME): SyncLock {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return inPageLock();
  return <T>(run: () => Promise<T>) => locks.request(name, run);
}
