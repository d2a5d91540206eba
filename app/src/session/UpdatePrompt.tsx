/// <reference types="vite-plugin-pwa/react" />
import { useRegisterSW } from 'virtual:pwa-register/react';
import { PRODUCT_NAME } from '@lectern/shared-schema';
import { Button } from '../components/Button';

/**
 * Registers the service worker and, when a new version has been deployed and is waiting, offers to switch
 * to it: reloading on its own could throw away a half-typed form.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="status">
      <p>A new version of {PRODUCT_NAME} is ready.</p>
      <div className="update-prompt__actions">
        <Button size="sm" onClick={() => void updateServiceWorker(true)}>
          Reload
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setNeedRefresh(false)}>
          Later
        </Button>
      </div>
    </div>
  );
}
