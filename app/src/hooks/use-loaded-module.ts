// A part of a screen in a chunk of its own, loaded when first mounted and waited for with state:
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
      // A failed load is tried again the next time the part is mounted.
      () => loaded.delete(load),
    );
    loaded.set(load, started);
    entry = started;
  }
  return entry;
}

/** The module `load` answers, loaded from the first mount on; undefined until it has arrived. */
export function useLoadedModule<Module>(load: () => Promise<Module>): Module | undefined {
  const [arrived, setArrived] = useState<Module>();
  // Loaded by an earlier mount: shown in the first render.
  const module = arrived ?? (loaded.get(load)?.module as Module | undefined);
  useEffect(() => {
    if (module !== undefined) return undefined;
    let current = true;
    start(load).promise.then(
      (answered) => current && setArrived(() => answered),
      (error: unknown) => console.error('Loading a part of the screen failed', error),
    );
    return () => {
      current = false;
    };
  }, [load, module]);
  return module;
}
