import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ScrollSpeed, SETTLE_MS } from './scroll-speed';
import { windowRange, type WindowRange } from './window-range';

/** A list this short is built whole: cheap, and every card stays in the page for find-in-page. */
const WINDOW_FROM_ITEMS = 60;
/** Rows built beyond the screen, above and below, in screen heights: a fast flick still lands on cards. */
const MARGIN_SCREENS = 1;
/** Stands for a row before any has been measured. */
const FIRST_ESTIMATE = 360;

const WHOLE: WindowRange = { firstRow: 0, endRow: Number.MAX_SAFE_INTEGER, above: 0, below: 0 };

/**
 * Builds only the rows of a responsive CSS grid that are on screen, plus a screen's height either side;
 * spacers keep the room of the others, so the scrollbar and the page's height stay those of the whole
 * list. Every row is taken to be as tall as the first rows built were on average (cards keep their
 * height), so where a row lies is a multiplication, whatever the list's length; the browser's scroll
 * anchoring absorbs a built row a few pixels off. Columns are read from the grid itself, so the grid's own
 * CSS decides them at every width. Without layout (tests in happy-dom) it builds all. It also tells when
 * the grid is being flung (`flung`), so cards can leave what only a card being read needs. `count` cards
 * are shown of a list of `listLength` (more are shown as the reader nears the end).
 */
export function useWindowedGrid(count: number, listLength: number) {
  const listRef = useRef<HTMLUListElement | null>(null);
  /** The rows' height, measured once per width on the first rows built. */
  const rowHeight = useRef<number | null>(null);
  const [columns, setColumns] = useState(1);
  const [range, setRange] = useState<WindowRange>(WHOLE);
  // Decided by the whole list's length, not by how many of its cards are shown yet: a long list is windowed
  // from its first page, so the grid never turns windowed in the middle of a scroll (a frame of 66 ms
  // that built every card shown, measured them all and removed most).
  const windowed = listLength > WINDOW_FROM_ITEMS;
  /** Whether the grid is being flung (scroll-speed.ts), and when that ends if it stops moving. */
  const [flung, setFlung] = useState(false);
  const speed = useRef(new ScrollSpeed());
  const settle = useRef<ReturnType<typeof setTimeout>>(undefined);

  const update = useCallback(() => {
    const list = listRef.current;
    if (!list || !windowed) return;
    const style = getComputedStyle(list);
    const tracks = style.gridTemplateColumns.split(' ').filter((track) => track.endsWith('px')).length;
    const rect = list.getBoundingClientRect();
    if (tracks === 0 || rect.width === 0) return;
    if (tracks !== columns) {
      // Another width: the rows' height changes with it.
      rowHeight.current = null;
      setColumns(tracks);
      return;
    }
    const fast = speed.current.sample(-rect.top, performance.now(), window.innerHeight);
    clearTimeout(settle.current);
    setFlung(fast);
    if (fast) settle.current = setTimeout(() => setFlung(false), SETTLE_MS);
    const margin = window.innerHeight * MARGIN_SCREENS;
    const next = windowRange({
      rows: Math.ceil(count / tracks),
      rowHeight: rowHeight.current ?? FIRST_ESTIMATE,
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

  // After the first build at this width: the rows' height, from the cards now in the page (once).
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !windowed || rowHeight.current !== null) return;
    const heights = new Map<number, number>();
    for (const item of list.querySelectorAll<HTMLElement>(':scope > [data-row]:not([data-placeholder])')) {
      const row = Number(item.dataset.row);
      heights.set(row, Math.max(heights.get(row) ?? 0, item.offsetHeight));
    }
    const measured = [...heights.values()].filter((height) => height > 0);
    if (measured.length === 0) return;
    rowHeight.current = measured.reduce((sum, height) => sum + height, 0) / measured.length;
    update();
  });

  // More cards shown, or another number of columns: the span and the room below change.
  useLayoutEffect(() => {
    update();
  }, [update]);

  useEffect(() => {
    if (!windowed) return undefined;
    let frame = 0;
    const schedule = () => {
      if (frame === 0) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          update();
        });
      }
    };
    // Capture: the page may scroll in the window or in a scrolling container around the grid.
    document.addEventListener('scroll', schedule, { capture: true, passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(settle.current);
      document.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
    };
  }, [update, windowed]);

  if (!windowed) return { listRef, columns: 1, start: 0, end: count, above: 0, below: 0, flung: false };
  const start = Math.min(range.firstRow * columns, count);
  const end = Math.min(range.endRow * columns, count);
  return { listRef, columns, start, end, above: range.above, below: range.below, flung };
}
