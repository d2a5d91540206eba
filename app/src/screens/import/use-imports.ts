// The import screen's state: the reader's imports (GET /imports), the one on show, followed every second
// while it is being written or fetched, and starting a new one. Leaving the screen stops the polling;
// coming back picks up a running import where the server has got to.
import type { ImportView } from '@lectern/shared-schema';
import { useCallback, useEffect, useRef, useState } from 'react';
import { importErrorOf, importInProgress, type StartImportInput } from '../../data';
import { useLectern } from '../../session/use-lectern';

/** How often a running import is asked for (the issue: every second or so while the screen is open). */
export const IMPORT_POLL_MS = 1000;
/** After a failed poll (offline, server restarting): ask again, less often. */
const RETRY_POLL_MS = 3000;

export interface ImportsState {
  /** Undefined until the server answered the list. */
  imports: ImportView[] | undefined;
  /** The import on show, null for none (then the file picker shows). */
  currentId: string | null;
  /** The import on show (just started, or picked from the list), as last read. */
  current: ImportView | null;
  /** Why the list or the import on show could not be read (offline): shown, and asked again. */
  readError: string | null;
  show(id: string | null): void;
  start(input: StartImportInput): Promise<ImportView>;
}

function upsert(list: ImportView[] | undefined, view: ImportView): ImportView[] {
  const others = (list ?? []).filter((item) => item.id !== view.id);
  // The list leaves out failed rows; the list needn't carry them either.
  const { failures: _failures, ...row } = view;
  return [row, ...others].sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
}

export function useImports(pollMs = IMPORT_POLL_MS): ImportsState {
  const lectern = useLectern();
  const [imports, setImports] = useState<ImportView[] | undefined>();
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [current, setCurrent] = useState<ImportView | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  // The reader picked one (or closed it): a running import then never takes over by itself.
  const chosen = useRef(false);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function load() {
      try {
        const list = await lectern.imports.list();
        if (stopped) return;
        setImports(list);
        setReadError(null);
        const running = list.find(importInProgress);
        if (running && !chosen.current) {
          chosen.current = true;
          setCurrentId(running.id);
        }
      } catch (error) {
        if (stopped) return;
        setReadError(importErrorOf(error).message);
        timer = setTimeout(() => void load(), RETRY_POLL_MS);
      }
    }
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [lectern]);

  useEffect(() => {
    if (!currentId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function poll(id: string) {
      let delay = pollMs;
      try {
        const view = await lectern.imports.get(id);
        if (stopped) return;
        setCurrent(view);
        setImports((list) => upsert(list, view));
        setReadError(null);
        if (!importInProgress(view)) return;
      } catch (error) {
        if (stopped) return;
        setReadError(importErrorOf(error).message);
        delay = Math.max(pollMs, RETRY_POLL_MS);
      }
      timer = setTimeout(() => void poll(id), delay);
    }
    void poll(currentId);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [lectern, currentId, pollMs]);

  const show = useCallback((id: string | null) => {
    chosen.current = true;
    setCurrent(null);
    setCurrentId(id);
  }, []);

  const start = useCallback(
    async (input: StartImportInput) => {
      const started = await lectern.imports.start(input);
      chosen.current = true;
      setCurrent(started);
      setCurrentId(started.id);
      setImports((list) => upsert(list, started));
      return started;
    },
    [lectern],
  );

  return {
    imports,
    currentId,
    current: current && current.id === currentId ? current : null,
    readError,
    show,
    start,
  };
}
