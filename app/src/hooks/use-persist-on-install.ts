// Once the reader installs the app (or opens it installed), the browser is asked to keep its data for good:
// an installed app holding the library for the plane must not lose it to storage pressure.
import { useContext, useEffect } from 'react';
import { LecternContext } from '../session/use-lectern';

export function usePersistOnInstall(): void {
  const lectern = useContext(LecternContext);
  useEffect(() => {
    if (!lectern || typeof window === 'undefined') return undefined;
    const persist = () => void lectern.offline.requestPersistentStorage();
    if (window.matchMedia?.('(display-mode: standalone)').matches) persist();
    window.addEventListener('appinstalled', persist);
    return () => window.removeEventListener('appinstalled', persist);
  }, [lectern]);
}
