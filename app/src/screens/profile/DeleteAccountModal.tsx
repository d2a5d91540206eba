import { useRef, useState } from 'react';
import { DELETE_CONFIRM_PHRASE, isDeleteConfirmed, MESSAGES } from '@lectern/shared-schema';
import { ConfirmActions } from '../../components/ConfirmActions';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';

export interface DeleteAccountModalProps {
  open: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

/** Spec sections 4 and 5: deleting needs the exact text DELETE; until then a warning and a disabled button. */
export function DeleteAccountModal({ open, onClose, onConfirm }: DeleteAccountModalProps) {
  const [typed, setTyped] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const confirmed = isDeleteConfirmed(typed);

  function close() {
    setTyped('');
    onClose();
  }

  return (
    <Modal
      open={open}
      onClose={close}
      title="Delete your account?"
      description="This permanently deletes your account with every article, highlight, tag and list. It cannot be undone; export your data first if you want to keep it."
      initialFocusRef={inputRef}
      closeOnBackdrop={false}
      size="sm"
      footer={
        <ConfirmActions
          onCancel={close}
          confirmLabel="Delete my account"
          onConfirm={onConfirm}
          disabled={!confirmed}
        />
      }
    >
      <TextField
        ref={inputRef}
        label={`Type ${DELETE_CONFIRM_PHRASE} to confirm`}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        error={confirmed ? null : MESSAGES.deleteConfirmWarning}
      />
    </Modal>
  );
}
