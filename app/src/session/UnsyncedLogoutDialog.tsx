import { ConfirmActions } from '../components/ConfirmActions';
import { Modal } from '../components/Modal';

/** What would wipe the device: a logout (here or everywhere), or a sign-in as another account. */
export type UnsyncedLossCause = { kind: 'logout' } | { kind: 'sign-in'; previousEmail: string };

export interface UnsyncedLogoutDialogProps {
  /** Changes waiting for the server; null keeps the dialog closed. */
  count: number | null;
  /** Logout unless told otherwise. */
  cause?: UnsyncedLossCause;
  onCancel: () => void;
  onConfirm: () => Promise<unknown>;
}

function texts(cause: UnsyncedLossCause, changes: string) {
  if (cause.kind === 'sign-in')
    return {
      title: 'Sign in and lose unsynced changes?',
      description: `${changes} made on this device by ${cause.previousEmail} haven't reached the server yet. Signing in with another account clears this device, so they would be lost. Cancel and sign in as ${cause.previousEmail} to keep them.`,
      cancel: 'Cancel',
      confirm: 'Sign in anyway',
    };
  return {
    title: 'Log out and lose unsynced changes?',
    description: `${changes} made on this device haven't reached the server yet. Logging out clears this device, so they would be lost. Stay signed in and reconnect to keep them.`,
    cancel: 'Stay signed in',
    confirm: 'Log out anyway',
  };
}

/**
 * Logging out wipes the device (shared computers), and so does signing in as another account, so changes
 * the server hasn't got would be lost: nothing goes without this warning.
 */
export function UnsyncedLogoutDialog({
  count,
  cause = { kind: 'logout' },
  onCancel,
  onConfirm,
}: UnsyncedLogoutDialogProps) {
  const changes = count === 1 ? '1 change' : `${count ?? 0} changes`;
  const text = texts(cause, changes);
  return (
    <Modal
      open={count !== null}
      onClose={onCancel}
      size="sm"
      title={text.title}
      description={text.description}
      footer={
        <ConfirmActions
          cancelLabel={text.cancel}
          onCancel={onCancel}
          confirmLabel={text.confirm}
          onConfirm={onConfirm}
        />
      }
    />
  );
}
