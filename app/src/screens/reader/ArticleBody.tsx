import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { MouseEvent, RefObject } from 'react';
import { HIGHLIGHT_REAPPLY_DELAY_MS, type Highlight } from '@lectern/shared-schema';
import { highlightIdsOf } from './highlighting/marks';
import { placeHighlights } from './highlighting/place-highlights';
import type { Box } from './popover-position';
import { boxOf } from './use-highlight-selection';

export interface ArticleBodyProps {
  bodyRef: RefObject<HTMLDivElement | null>;
  /** Sanitized in the browser already. */
  html: string;
  highlights: readonly Highlight[];
  /** Ids of highlights whose text isn't in the body, after each placement. */
  onPlacement: (notPlaced: string[]) => void;
  /** A mark was clicked: the highlights it paints and where it is. */
  onMarkActivate: (highlightIds: string[], anchor: Box) => void;
}

/**
 * The article's HTML, with its highlights painted in about 500 ms after it appears (spec section 4) and
 * again whenever they change. React never touches the HTML after setting it, so the marks stay put.
 */
export function ArticleBody({ bodyRef, html, highlights, onPlacement, onMarkActivate }: ArticleBodyProps) {
  const [settled, setSettled] = useState(false);
  const onPlacementRef = useRef(onPlacement);
  useLayoutEffect(() => {
    onPlacementRef.current = onPlacement;
  });

  useLayoutEffect(() => {
    // Code blocks and tables scroll sideways; a keyboard user must be able to reach them to scroll.
    for (const region of bodyRef.current?.querySelectorAll<HTMLElement>('pre, table') ?? [])
      region.tabIndex = 0;
  }, [bodyRef, html]);

  useEffect(() => {
    const timer = setTimeout(() => setSettled(true), HIGHLIGHT_REAPPLY_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    const root = bodyRef.current;
    if (!settled || !root) return;
    onPlacementRef.current(placeHighlights(root, highlights).notPlaced);
  }, [bodyRef, settled, highlights, html]);

  function activateMark(event: MouseEvent<HTMLDivElement>) {
    if (!(event.target instanceof Element)) return;
    const ids = highlightIdsOf(event.target);
    // A click that ends a selection is not a click on a mark.
    if (ids.length === 0 || !document.getSelection()?.isCollapsed) return;
    const mark = event.target.closest('mark');
    if (mark) onMarkActivate(ids, boxOf(mark.getBoundingClientRect()));
  }

  return (
    <div
      ref={bodyRef}
      className="reader-body"
      data-highlights-placed={settled || undefined}
      onClick={activateMark}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
