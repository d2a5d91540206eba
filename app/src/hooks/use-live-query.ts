// A read of the device's database that runs again after every change to what it read (in any tab), as
// dexie-react-hooks' useLiveQuery, but through the data layer's own liveQuery: the screens' JavaScript
// doesn't import Dexie, which loads with the data layer in its own chunk (data/load-lectern.ts).
import { useEffect, useReducer, useRef, type DependencyList } from 'react';
import { useLectern } from '../session/use-lectern';

/** The querier's last answer (kept while a new one is on its way after `deps` change); undefined before the first. */
export function useLiveQuery<T>(querier: () => Promise<T> | T, deps: DependencyList): T | undefined {
  const lectern = useLectern();
  const last = useRef<{ result: T | undefined; error: unknown }>({ result: undefined, error: null });
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const subscription = lectern.liveQuery(querier).subscribe({
      next: (value) => {
        if (last.current.error === null && last.current.result === value) return;
        last.current = { result: value, error: null };
        rerender();
      },
      error: (error: unknown) => {
        last.current = { result: last.current.result, error };
        rerender();
      },
    });
    return () => subscription.unsubscribe();
    // The caller's deps name everything `querier` uses.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lectern, ...deps]);
  if (last.current.error !== null) throw last.current.error;
  return last.current.result;
}
