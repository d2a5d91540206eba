import type { ReadingList } from '@lectern/shared-schema';
import { ConfirmDialog } from '../../components/ConfirmDialog';

export interface DeleteListDialogProps {
  list: ReadingList | null;
  onCancel: () => void;
  onConfirm: (list: ReadingList) => Promise<unknown>;
}

export function DeleteListDialog({ list, onCancel, onConfirm }: DeleteListDialogProps) {
  return (
    <ConfirmDialog
      subject={list}
      title={list ? `Delete “${list.name}”?` : 'Delete list?'}
      description="The list and its share link go away. The articles stay in your library."
      confirmLabel="Delete list"
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
