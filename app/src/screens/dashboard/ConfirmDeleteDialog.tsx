import { ConfirmDialog } from '../../components/ConfirmDialog';

export interface ConfirmDeleteDialogProps {
  /** What is about to go: null keeps the dialog closed. */
  request: { title: string; description: string; confirmLabel: string } | null;
  onCancel(): void;
  onConfirm(): Promise<void>;
}

export function ConfirmDeleteDialog({ request, onCancel, onConfirm }: ConfirmDeleteDialogProps) {
  return (
    <ConfirmDialog
      subject={request}
      title={request?.title ?? ''}
      description={request?.description}
      confirmLabel={request?.confirmLabel ?? 'Delete'}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
