// Watching for a selection in the article body while highlight mode is on. A mouse selection is read
// when the button comes up; a touch or keyboard selection when it has stopped changing for a moment
// (phones adjust a selection with handles and never send a pointerup for it).
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { RefObject } from 'react';
import { describeSelection, type HighlightDraft } from './highlighting/anchor';
import { buildTextModel } from './highlighting/text-model';
import type { Box } from './popover-position';

const SETTLE_MS = 400;

export interface PendingHighlight {
  draft: HighlightDraft;
  /** Where the selection is, in viewport coordinates. */
  anchor: Box;
  /** The selection came from touch: leave focus alone so the handles stay usable. */
  viaTouch: boolean;
}

export function boxOf(rect: DOMRect): Box {
  return { top: rect.top, left: rect.left, width: rect.width, height: rect.height };
}

export function useHighlightSelection(
  bodyRef: RefObject<HTMLElement | null>,
  enabled: boolean,
  onSelect: (pending: PendingHighlight) => void,
) {
  const onSelectRef = useRef(onSelect);
  useLayoutEffect(() => {
    onSelectRef.current = onSelect;
  });

  useEffect(() => {
    const root = bodyRef.current;
    if (!enabled || !root) return;
    let mouseDown = false;
    let lastPointer = 'mouse';
    let timer: ReturnType<typeof setTimeout> | undefined;

    const readSelection = () => {
      const selection = document.getSelection();
      if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return;
      const range = selection.getRangeAt(0);
      const draft = describeSelection(buildTextModel(root), range);
      if (!draft) return;
      const rects = range.getClientRects();
      const last = rects[rects.length - 1];
      onSelectRef.current({
        draft,
        anchor: boxOf(last ?? range.getBoundingClientRect()),
        viaTouch: lastPointer !== 'mouse',
      });
    };
    const readSoon = (delayMs: number) => {
      clearTimeout(timer);
      timer = setTimeout(readSelection, delayMs);
    };

    const onPointerDown = (event: PointerEvent) => {
      lastPointer = event.pointerType || 'mouse';
      mouseDown = lastPointer === 'mouse';
    };
    const onPointerUp = () => {
      if (!mouseDown) return;
      mouseDown = false;
      readSoon(0);
    };
    const onKeyUp = () => {
      lastPointer = 'keyboard';
    };
    const onSelectionChange = () => {
      if (!mouseDown) readSoon(SETTLE_MS);
    };

    root.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('pointerup', onPointerUp);
    document.addEventListener('keyup', onKeyUp);
    document.addEventListener('selectionchange', onSelectionChange);
    return () => {
      clearTimeout(timer);
      root.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('pointerup', onPointerUp);
      document.removeEventListener('keyup', onKeyUp);
      document.removeEventListener('selectionchange', onSelectionChange);
    };
  }, [bodyRef, enabled]);
}
