import { highlightPreviewText, type Highlight } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { FloatingPanel } from './FloatingPanel';
import { formatDate } from './format-date';
import type { Box } from './popover-position';
import { TrashIcon } from './reader-icons';

export interface MarkPopoverProps {
  /** The highlights the clicked mark paints: one, or several where they overlap. */
  highlights: readonly Highlight[];
  anchor: Box;
  onDelete: (highlight: Highlight) => void;
  onClose: () => void;
}

export function MarkPopover({ highlights, anchor, onDelete, onClose }: MarkPopoverProps) {
  return (
    <FloatingPanel label="Highlight" anchor={anchor} attach="page" onClose={onClose} className="mark-popover">
      <ul className="mark-popover__list">
        {highlights.map((highlight) => (
          <li key={highlight.id} className="mark-popover__item">
            <blockquote className="highlight-quote">
              {highlightPreviewText(highlight.highlighted_text)}
            </blockquote>
            <div className="mark-popover__row">
              <span className="mark-popover__date">Highlighted {formatDate(highlight.created_at)}</span>
              <Button variant="ghost" size="sm" onClick={() => onDelete(highlight)}>
                <TrashIcon size={16} />
                Delete highlight
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </FloatingPanel>
  );
}
