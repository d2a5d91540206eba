// An article whose body isn't on this device yet (it came as a card in the device's first sync, and the
// background download hasn't reached it): fetched on opening when the server can be reached, else the
// reader says it isn't here yet. Once stored, the live article shows it.
import { useEffect, useState } from 'react';
import type { LocalArticle } from '../../data';
import { useOnline } from '../../hooks/use-sync-state';
import { useLectern } from '../../session/use-lectern';

export type MissingBody = 'fetching' | 'notHere' | null;

export function useMissingBody(article: LocalArticle): MissingBody {
  const lectern = useLectern();
  const online = useOnline();
  const [failedFor, setFailedFor] = useState<string | null>(null);
  const missing = article.bodyMissing === true;
  const fetching = missing && online && failedFor !== article.id;

  useEffect(() => {
    if (!fetching) return;
    const id = article.id;
    let cancelled = false;
    void lectern.articles
      .fetchBody(id)
      .then((found) => {
        if (!found && !cancelled) setFailedFor(id);
      })
      .catch(() => {
        if (!cancelled) setFailedFor(id);
      });
    return () => {
      cancelled = true;
    };
  }, [lectern, article.id, fetching]);

  // Back online after a failed try: try again.
  useEffect(() => {
    if (!online) setFailedFor(null);
  }, [online]);

  if (!missing) return null;
  return fetching ? 'fetching' : 'notHere';
}
