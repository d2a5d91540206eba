import { useEffect, useRef } from 'react';
import { useToast } from '../components/use-toast';
import { useLectern } from './use-lectern';

/** Says so when the device loses or regains the server, once per change. */
export function useConnectivityToasts() {
  const { sync } = useLectern();
  const { showToast } = useToast();
  const wasOnline = useRef(sync.getState().online);

  useEffect(() => {
    const onChange = () => {
      const { online } = sync.getState();
      if (online === wasOnline.current) return;
      wasOnline.current = online;
      if (online) showToast('Back online. Syncing your changes.', 'info');
      else showToast('You’re offline. Changes are kept on this device until you reconnect.', 'warning');
    };
    const stop = sync.subscribe(onChange);
    // A change between the render and this subscription is said now.
    onChange();
    return () => {
      stop();
    };
  }, [sync, showToast]);
}
