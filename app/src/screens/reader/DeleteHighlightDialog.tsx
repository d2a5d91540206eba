import { useState } from 'react';
import { highlightPreviewText, type Highlight } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';

export interface DeleteHighlightDialogProps {
  highlight: Highlight | null;
  onCancel: () => void;
  onConfirm: (highlight: Highlight) => Promise<unknown>;
}

export function DeleteHighlightDialog({ highlight, onCancel, onConfirm }: DeleteHighlightDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={highlight !== null}
      onClose={onCancel}
      title="Delete this highlight?"
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
              if (!highlight) return;
              setBusy(true);
              try {
                await onConfirm(highlight);
              } finally {
                setBusy(false);
              }
            }}
          >
            Delete
          </Button>
        </>
      }
    >
      {highlight && (
        <blockquote className="highlight-quote">
          {highlightPreviewText(highlight.highlighted_text)}
        </blockquote>
      )}
    </Modal>
  );
}
