// Which of the shown articles are fully on the device, pictures included, and which are still downloading:
// a live read, so a card's mark changes as the downloads come in.
import { useLiveQuery } from 'dexie-react-hooks';
import { useContext } from 'react';
import type { OfflineAvailability } from '../data';
import { LecternContext } from '../session/use-lectern';

const NONE: ReadonlyMap<string, OfflineAvailability> = new Map();

export function useOfflineAvailability(
  articleIds: readonly string[],
): ReadonlyMap<string, OfflineAvailability> {
  const lectern = useContext(LecternContext);
  const key = articleIds.join(',');
  const answer = useLiveQuery(
    () => (lectern ? lectern.offline.availability(articleIds) : Promise.resolve(NONE)),
    // The ids' content, not the array's identity, decides what to read.
    [lectern, key],
  );
  return answer ?? NONE;
}
