// The offline library's sizes and budget for the profile screen, read again after each change the reader
// makes there.
import { useCallback, useEffect, useState } from 'react';
import type { OfflineUsage } from '../data';
import { useLectern } from '../session/use-lectern';

export function useOfflineUsage(): { usage: OfflineUsage | null; reload: () => void } {
  const lectern = useLectern();
  const [usage, setUsage] = useState<OfflineUsage | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let cancelled = false;
    void lectern.offline.usage().then((value) => {
      if (!cancelled) setUsage(value);
    });
    return () => {
      cancelled = true;
    };
  }, [lectern, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { usage, reload };
}
