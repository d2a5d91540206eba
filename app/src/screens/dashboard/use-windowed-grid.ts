import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { windowRange, type WindowRange } from './window-range';

/** A list this short is built whole: cheap, and every card stays in the page for find-in-page. */
const WINDOW_FROM_ITEMS = 60;
/** Rows built beyond the screen, above and below, in screen heights: a fast flick still lands on cards. */
const MARGIN_SCREENS = 1;
/** Stands for a row never on screen yet, before any has been measured. */
const FIRST_ESTIMATE = 360;
const MAX_MEASURED_PASSES = 4;

const WHOLE: WindowRange = { firstRow: 0, endRow: Number.MAX_SAFE_INTEGER, above: 0, below: 0 };

/**
 * Builds only the rows of a responsive CSS grid that are on screen, plus a screen's height either side;
 * spacers keep the room of the others, so the scrollbar and the page's height stay those of the whole
 * list. Rows are measured as they pass (cards differ in height); columns are read from the grid itself,
 * so the grid's own CSS decides them at every width. Without layout (tests in happy-dom) it builds all.
 */
export function useWindowedGrid(count: number) {
  const listRef = useRef<HTMLUListElement | null>(null);
  const heights = useRef(new Map<number, number>());
  const estimate = useRef<number | null>(null);
  /** Builds in a row caused by measuring, not by scrolling: bounded, so a page never loops on itself. */
  const measuredPasses = useRef(0);
  const [columns, setColumns] = useState(1);
  const [range, setRange] = useState<WindowRange>(WHOLE);
  const windowed = count > WINDOW_FROM_ITEMS;

  const update = useCallback(() => {
    const list = listRef.current;
    if (!list || !windowed) return;
    const style = getComputedStyle(list);
    const tracks = style.gridTemplateColumns.split(' ').filter((track) => track.endsWith('px')).length;
    const rect = list.getBoundingClientRect();
    if (tracks === 0 || rect.width === 0) return;
    if (tracks !== columns) {
      // Another width: every row's height changes with it.
      heights.current.clear();
      estimate.current = null;
      setColumns(tracks);
      return;
    }
    // Fixed once the first rows are measured: an estimate that moved with every row could make the span
    // swing back and forth between two builds.
    if (estimate.current === null && heights.current.size > 0) {
      const measured = [...heights.current.values()];
      estimate.current = measured.reduce((sum, h) => sum + h, 0) / measured.length;
    }
    const margin = window.innerHeight * MARGIN_SCREENS;
    const next = windowRange({
      rows: Math.ceil(count / tracks),
      heightOf: (row) => heights.current.get(row),
      estimate: estimate.current ?? FIRST_ESTIMATE,
      gap: parseFloat(style.rowGap) || 0,
      from: -rect.top - margin,
      to: -rect.top + window.innerHeight + margin,
    });
    setRange((current) =>
      current.firstRow === next.firstRow &&
      current.endRow === next.endRow &&
      Math.abs(current.above - next.above) < 1 &&
      Math.abs(current.below - next.below) < 1
        ? current
        : next,
    );
  }, [count, columns, windowed]);

  // After each build: measure the rows now in the page, then see whether the span moved.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !windowed) return;
    let changed = false;
    for (const item of list.querySelectorAll<HTMLElement>(':scope > [data-row]')) {
      const row = Number(item.dataset.row);
      const height = item.offsetHeight;
      if (height > 0 && Math.abs((heights.current.get(row) ?? 0) - height) >= 1) {
        heights.current.set(row, height);
        changed = true;
      }
    }
    if (changed && measuredPasses.current < MAX_MEASURED_PASSES) {
      measuredPasses.current += 1;
      update();
    }
  });

  // More cards shown, or another number of columns: the span and the room below change.
  useLayoutEffect(() => {
    measuredPasses.current = 0;
    update();
  }, [update]);

  useEffect(() => {
    if (!windowed) return undefined;
    let frame = 0;
    const schedule = () => {
      if (frame === 0) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          measuredPasses.current = 0;
          update();
        });
      }
    };
    // Capture: the page may scroll in the window or in a scrolling container around the grid.
    document.addEventListener('scroll', schedule, { capture: true, passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
    };
  }, [update, windowed]);

  if (!windowed) return { listRef, columns: 1, start: 0, end: count, above: 0, below: 0 };
  const start = Math.min(range.firstRow * columns, count);
  const end = Math.min(range.endRow * columns, count);
  return { listRef, columns, start, end, above: range.above, below: range.below };
}
