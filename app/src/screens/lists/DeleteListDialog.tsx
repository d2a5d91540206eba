import { useState } from 'react';
import type { ReadingList } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';

export interface DeleteListDialogProps {
  list: ReadingList | null;
  onCancel: () => void;
  onConfirm: (list: ReadingList) => Promise<unknown>;
}

export function DeleteListDialog({ list, onCancel, onConfirm }: DeleteListDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={list !== null}
      onClose={onCancel}
      title={list ? `Delete “${list.name}”?` : 'Delete list?'}
      description="The list and its share link go away. The articles stay in your library."
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
              if (!list) return;
              setBusy(true);
              try {
                await onConfirm(list);
              } finally {
                setBusy(false);
              }
            }}
          >
            Delete list
          </Button>
        </>
      }
    />
  );
}
