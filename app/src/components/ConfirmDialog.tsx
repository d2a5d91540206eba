import type { ReactNode } from 'react';
import { ConfirmActions } from './ConfirmActions';
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
  return (
    <Modal
      open={subject !== null}
      onClose={onCancel}
      title={title}
      description={description}
      size="sm"
      footer={
        <ConfirmActions
          onCancel={onCancel}
          confirmLabel={confirmLabel}
          onConfirm={async () => {
            if (subject !== null) await onConfirm(subject);
          }}
        />
      }
    >
      {children}
    </Modal>
  );
}
