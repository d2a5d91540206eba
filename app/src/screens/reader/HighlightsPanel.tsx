import { useState } from 'react';
import type { RefObject } from 'react';
import {
  HIGHLIGHTS_POPUP_MAX,
  highlightPreviewText,
  moreHighlightsLabel,
  type Highlight,
} from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { FloatingPanel } from './FloatingPanel';
import type { Box } from './popover-position';
import { TrashIcon } from './reader-icons';

export interface HighlightsPanelProps {
  highlights: readonly Highlight[];
  /** Highlights whose text the body no longer holds. */
  notPlaced: ReadonlySet<string>;
  anchor: Box;
  triggerRef: RefObject<HTMLElement | null>;
  onGoTo: (highlight: Highlight) => void;
  onDelete: (highlight: Highlight) => void;
  onClose: () => void;
}

/** The article's highlights in reading order: the first three, then '+ n more' (spec section 4). */
export function HighlightsPanel({
  highlights,
  notPlaced,
  anchor,
  triggerRef,
  onGoTo,
  onDelete,
  onClose,
}: HighlightsPanelProps) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? highlights : highlights.slice(0, HIGHLIGHTS_POPUP_MAX);
  const hidden = highlights.length - shown.length;
  return (
    <FloatingPanel
      label={`Highlights (${highlights.length})`}
      anchor={anchor}
      attach="viewport"
      triggerRef={triggerRef}
      onClose={onClose}
      className="highlights-panel"
    >
      <p className="floating-panel__title">Highlights ({highlights.length})</p>
      {highlights.length === 0 ? (
        <p className="highlights-panel__empty">
          No highlights yet. Turn on highlight mode and select a passage to keep it.
        </p>
      ) : (
        <ul className="highlights-panel__list">
          {shown.map((highlight) => {
            const placed = !notPlaced.has(highlight.id);
            return (
              <li key={highlight.id} className="highlights-panel__item" data-placed={placed}>
                {placed ? (
                  <button type="button" className="highlights-panel__quote" onClick={() => onGoTo(highlight)}>
                    {highlightPreviewText(highlight.highlighted_text)}
                  </button>
                ) : (
                  <div className="highlights-panel__quote highlights-panel__quote--missing">
                    {highlightPreviewText(highlight.highlighted_text)}
                    <span className="badge badge--warning">Not placed: text not found in this version</span>
                  </div>
                )}
                <button
                  type="button"
                  className="icon-button"
                  aria-label="Delete highlight"
                  onClick={() => onDelete(highlight)}
                >
                  <TrashIcon size={18} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {hidden > 0 && (
        <Button variant="ghost" size="sm" onClick={() => setShowAll(true)}>
          {moreHighlightsLabel(hidden)}
        </Button>
      )}
      {showAll && highlights.length > HIGHLIGHTS_POPUP_MAX && (
        <Button variant="ghost" size="sm" onClick={() => setShowAll(false)}>
          Show fewer
        </Button>
      )}
    </FloatingPanel>
  );
}
