import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * How many items of a long list to show: a first page, then as many again each time the sentinel comes
 * near the viewport (24, 48, 96…), so scrolling to the end of 50,000 takes a dozen steps, not 2,000. Only
 * the cards on screen are built (the windowed grid), so showing more costs little.
 * Starts over whenever `resetKey` changes (a new filter, search or sort).
 */
export function useIncrementalCount(total: number, pageSize: number, resetKey: string) {
  const [shown, setShown] = useState({ key: resetKey, count: pageSize });
  const count = shown.key === resetKey ? shown.count : pageSize;
  const observer = useRef<IntersectionObserver | null>(null);
  const sentinel = useRef<HTMLElement | null>(null);

  const showMore = useCallback(() => {
    setShown((current) => ({
      key: resetKey,
      count: 2 * (current.key === resetKey ? current.count : pageSize),
    }));
  }, [pageSize, resetKey]);

  const sentinelRef = useCallback(
    (element: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      sentinel.current = element;
      if (!element || typeof IntersectionObserver === 'undefined') return;
      observer.current = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) showMore();
        },
        { rootMargin: '1200px 0px' },
      );
      observer.current.observe(element);
    },
    [showMore],
  );

  // Observing again reports the sentinel's current state: a page too short to push it away loads another.
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !observer.current) return;
    observer.current.unobserve(element);
    observer.current.observe(element);
  }, [count]);

  useEffect(() => () => observer.current?.disconnect(), []);

  return { visible: Math.min(count, total), hasMore: count < total, showMore, sentinelRef };
}
