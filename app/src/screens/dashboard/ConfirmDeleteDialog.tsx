import { useState } from 'react';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';

export interface ConfirmDeleteDialogProps {
  /** What is about to go: null keeps the dialog closed. */
  request: { title: string; description: string; confirmLabel: string } | null;
  onCancel(): void;
  onConfirm(): Promise<void>;
}

export function ConfirmDeleteDialog({ request, onCancel, onConfirm }: ConfirmDeleteDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={request !== null}
      onClose={onCancel}
      size="sm"
      title={request?.title ?? ''}
      description={request?.description}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
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
            {request?.confirmLabel ?? 'Delete'}
          </Button>
        </>
      }
    />
  );
}
