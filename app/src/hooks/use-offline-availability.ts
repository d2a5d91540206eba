// Which of the shown articles are fully on the device, pictures included, and which are still downloading:
// followed as the downloads come in, at most twice a second (a long download writes many small batches).
import { useContext, useEffect, useState } from 'react';
import type { OfflineAvailability } from '../data';
import { LecternContext } from '../session/use-lectern';

const NONE: ReadonlyMap<string, OfflineAvailability> = new Map();

export function useOfflineAvailability(
  articleIds: readonly string[],
): ReadonlyMap<string, OfflineAvailability> {
  const lectern = useContext(LecternContext);
  // The last answer stays while more cards are shown: it is right for the ids it has.
  const [answer, setAnswer] = useState<ReadonlyMap<string, OfflineAvailability>>(NONE);
  // The ids' content, not the array's identity, decides what to follow.
  const key = articleIds.join(',');
  useEffect(() => {
    if (!lectern || key === '') return undefined;
    return lectern.offline.watchAvailability(key.split(','), setAnswer);
  }, [lectern, key]);
  return answer;
}
