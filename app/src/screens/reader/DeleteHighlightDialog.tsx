import { highlightPreviewText, type Highlight } from '@lectern/shared-schema';
import { ConfirmDialog } from '../../components/ConfirmDialog';

export interface DeleteHighlightDialogProps {
  highlight: Highlight | null;
  onCancel: () => void;
  onConfirm: (highlight: Highlight) => Promise<unknown>;
}

export function DeleteHighlightDialog({ highlight, onCancel, onConfirm }: DeleteHighlightDialogProps) {
  return (
    <ConfirmDialog
      subject={highlight}
      title="Delete this highlight?"
      confirmLabel="Delete"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {highlight && (
        <blockquote className="highlight-quote">
          {highlightPreviewText(highlight.highlighted_text)}
        </blockquote>
      )}
    </ConfirmDialog>
  );
}
