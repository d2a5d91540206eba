// A part of a screen in a chunk of its own, loaded the first time it is wanted and waited for with state:
// a React.lazy component inside Suspense is revealed only once its fallback has been on screen for 300 ms
// (React's reveal throttle), however soon the chunk arrives.
import { useEffect, useState } from 'react';

const loaded = new WeakMap<() => Promise<unknown>, { module?: unknown; promise: Promise<unknown> }>();

function start<Module>(load: () => Promise<Module>): { module?: Module; promise: Promise<Module> } {
  let entry = loaded.get(load) as { module?: Module; promise: Promise<Module> } | undefined;
  if (!entry) {
    const promise = load();
    const started: { module?: Module; promise: Promise<Module> } = { promise };
    promise.then(
      (module) => (started.module = module),
      // A failed load is tried again the next time the part is wanted.
      () => loaded.delete(load),
    );
    loaded.set(load, started);
    entry = started;
  }
  return entry;
}

/** The module `load` answers once it has arrived, undefined until then (and while not `wanted`). */
export function useLoadedModule<Module>(load: () => Promise<Module>, wanted: boolean): Module | undefined {
  const [, setArrived] = useState<Module>();
  const entry = wanted ? start(load) : loaded.get(load);
  const module = entry?.module as Module | undefined;
  useEffect(() => {
    if (!wanted || module !== undefined) return undefined;
    let current = true;
    start(load).promise.then(
      (arrived) => current && setArrived(() => arrived),
      (error: unknown) => console.error('Loading a part of the screen failed', error),
    );
    return () => {
      current = false;
    };
  }, [load, wanted, module]);
  return module;
}
