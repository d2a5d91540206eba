import { useState } from 'react';
import { Button } from './Button';

export interface ConfirmActionsProps {
  cancelLabel?: string;
  onCancel: () => void;
  confirmLabel: string;
  /** The destructive work; the button shows it running and can't be pressed twice meanwhile. */
  onConfirm: () => Promise<unknown>;
  /** Not yet allowed (e.g. until the confirmation text is typed). */
  disabled?: boolean;
}

/** The footer of an "are you sure?" dialog: a way out, and a danger button that waits for the work. */
export function ConfirmActions({
  cancelLabel = 'Cancel',
  onCancel,
  confirmLabel,
  onConfirm,
  disabled = false,
}: ConfirmActionsProps) {
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button
        variant="danger"
        disabled={disabled}
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
        {confirmLabel}
      </Button>
    </>
  );
}
