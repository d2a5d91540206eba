import { useId } from 'react';
import { highlightPreviewText } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { FloatingPanel } from './FloatingPanel';
import type { PendingHighlight } from './use-highlight-selection';

export interface HighlightConfirmPopupProps {
  pending: PendingHighlight;
  saving: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Spec section 4: the selected text, cut at 100 characters plus '...', to save or let go. */
export function HighlightConfirmPopup({ pending, saving, onConfirm, onCancel }: HighlightConfirmPopupProps) {
  const titleId = useId();
  return (
    <FloatingPanel
      label="Save highlight"
      anchor={pending.anchor}
      attach="page"
      takeFocus={!pending.viaTouch}
      onClose={onCancel}
      className="highlight-confirm"
    >
      <p className="floating-panel__title" id={titleId}>
        Save this highlight?
      </p>
      <blockquote className="highlight-quote" data-testid="highlight-preview">
        {highlightPreviewText(pending.draft.text)}
      </blockquote>
      <div className="floating-panel__actions">
        <Button variant="secondary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" onClick={onConfirm} busy={saving}>
          Save highlight
        </Button>
      </div>
    </FloatingPanel>
  );
}
