// Which of the shown articles are fully on the device, pictures included, and which are still downloading:
// followed as the downloads come in, at most twice a second (a long download writes many small batches).
import { useContext, useEffect, useState } from 'react';
import type { AvailabilityInput, OfflineAvailability } from '../data';
import { LecternContext } from '../session/use-lectern';

const NONE: ReadonlyMap<string, OfflineAvailability> = new Map();
const SETTLE_MS = 150;

/** `value` once it has stayed `ms` unchanged; the first value at once. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === settled) return undefined;
    const timer = setTimeout(() => setSettled(value), settled === '' ? 0 : ms);
    return () => clearTimeout(timer);
  }, [value, settled, ms]);
  return settled;
}

export function useOfflineAvailability(
  articles: readonly AvailabilityInput[],
): ReadonlyMap<string, OfflineAvailability> {
  const lectern = useContext(LecternContext);
  // The last answer stays while more cards are shown: it is right for the ids it has.
  const [answer, setAnswer] = useState<ReadonlyMap<string, OfflineAvailability>>(NONE);
  // What the answer depends on, not the array's identity, decides when to follow anew.
  const shownKey = articles
    .map((article) => `${article.id}:${article.images_pending ? 1 : 0}:${article.fetch_state ?? ''}`)
    .join(',');
  // While the reader scrolls the cards change every frame: followed once they stay a moment, so a fling
  // doesn't read the database for every screen it passes.
  const key = useSettled(shownKey, SETTLE_MS);
  useEffect(() => {
    if (!lectern || key === '') return undefined;
    const followed = key.split(',').map((entry) => {
      const [id = '', pending, fetchState] = entry.split(':');
      return {
        id,
        images_pending: pending === '1',
        fetch_state: fetchState === '' ? undefined : (fetchState as AvailabilityInput['fetch_state']),
      };
    });
    return lectern.offline.watchAvailability(followed, setAnswer);
  }, [lectern, key]);
  return answer;
}
