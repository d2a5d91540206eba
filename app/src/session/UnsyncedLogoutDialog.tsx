import { useState } from 'react';
import { Button } from '../components/Button';
import { Modal } from '../components/Modal';

export interface UnsyncedLogoutDialogProps {
  /** Changes waiting for the server; null keeps the dialog closed. */
  count: number | null;
  onCancel: () => void;
  onConfirm: () => Promise<unknown>;
}

/** Logging out wipes the device (shared computers), so changes the server hasn't got would be lost. */
export function UnsyncedLogoutDialog({ count, onCancel, onConfirm }: UnsyncedLogoutDialogProps) {
  const [busy, setBusy] = useState(false);
  const changes = count === 1 ? '1 change' : `${count ?? 0} changes`;
  return (
    <Modal
      open={count !== null}
      onClose={onCancel}
      size="sm"
      title="Log out and lose unsynced changes?"
      description={`${changes} made on this device haven't reached the server yet. Logging out clears this device, so they would be lost. Stay signed in and reconnect to keep them.`}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Stay signed in
          </Button>
          <Button
            variant="danger"
            busy={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onConfirm();
              } finally {
                setBusy(false);
              }
            }}
          >
            Log out anyway
          </Button>
        </>
      }
    />
  );
}
