// A read from the device's database that follows every later change (a pull, a write in another tab),
// with its failure as a value rather than a thrown error, so a screen can show 'not found' in place.
import { useLiveQuery } from './use-live-query';
import type { DependencyList } from 'react';

export type LiveResult<T> =
  { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: unknown };

const LOADING = { status: 'loading' } as const;

export function useLiveResult<T>(read: () => Promise<T>, deps: DependencyList): LiveResult<T> {
  const result = useLiveQuery(
    async (): Promise<LiveResult<T>> => {
      try {
        return { status: 'ready', value: await read() };
      } catch (error) {
        return { status: 'error', error };
      }
    },
    // The caller's deps name everything `read` uses.
    [...deps],
  );
  return result ?? LOADING;
}
