import { useState } from 'react';
import type { ReactNode } from 'react';
import { Button } from './Button';
import { Modal } from './Modal';

export interface ConfirmDialogProps<T> {
  /** What the dialog asks about; the dialog is open while this is not null. */
  subject: T | null;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: (subject: T) => Promise<unknown>;
}

/** A small "are you sure?" dialog for destructive actions: Cancel, and a danger button that waits for the work. */
export function ConfirmDialog<T>({
  subject,
  title,
  description,
  children,
  confirmLabel,
  onCancel,
  onConfirm,
}: ConfirmDialogProps<T>) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={subject !== null}
      onClose={onCancel}
      title={title}
      description={description}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            variant="danger"
            busy={busy}
            onClick={async () => {
              if (subject === null) return;
              setBusy(true);
              try {
                await onConfirm(subject);
              } finally {
                setBusy(false);
              }
            }}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
