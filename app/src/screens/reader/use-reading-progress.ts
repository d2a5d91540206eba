// Keeps an article's reading progress: restored when the article opens, saved (and so synced) when the
// reader stops scrolling and when the page goes away.
import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { progressAt, roundProgress, scrollForProgress, type BodyGeometry } from './reading-progress';

const SAVE_AFTER_MS = 1500;
/** Images (the hero above all) can load late and push the text down; follow the layout for this long. */
const RESTORE_WINDOW_MS = 3000;

function geometryOf(body: HTMLElement): BodyGeometry {
  const rect = body.getBoundingClientRect();
  return { bodyTop: rect.top + window.scrollY, bodyHeight: rect.height, viewportHeight: window.innerHeight };
}

export function useReadingProgress(
  bodyRef: RefObject<HTMLElement | null>,
  articleId: string,
  storedProgress: number,
  save: (progress: number) => void,
): number {
  const [progress, setProgress] = useState(storedProgress);
  const saveRef = useRef(save);
  const storedRef = useRef(storedProgress);
  useEffect(() => {
    saveRef.current = save;
  });

  useEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    let saved = roundProgress(storedRef.current);
    // Measured while the body is on screen: at unmount it may already be gone.
    let current = saved;
    let saveTimer: ReturnType<typeof setTimeout> | undefined;
    let userScrolled = false;
    let restoring = true;

    const restore = () => {
      if (userScrolled || saved <= 0) return;
      window.scrollTo({ top: scrollForProgress(saved, geometryOf(body)), behavior: 'instant' });
    };
    const flush = () => {
      clearTimeout(saveTimer);
      if (current !== saved) {
        saved = current;
        saveRef.current(current);
      }
    };
    const onScroll = () => {
      if (restoring) return;
      const exact = progressAt(window.scrollY, geometryOf(body));
      current = roundProgress(exact);
      setProgress(exact);
      clearTimeout(saveTimer);
      saveTimer = setTimeout(flush, SAVE_AFTER_MS);
    };
    const onUserScroll = () => {
      userScrolled = true;
      restoring = false;
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };

    restore();
    const layout = new ResizeObserver(restore);
    layout.observe(document.documentElement);
    const endRestore = setTimeout(() => {
      layout.disconnect();
      restoring = false;
      setProgress(progressAt(window.scrollY, geometryOf(body)));
    }, RESTORE_WINDOW_MS);
    // Only a person scrolls with these; a restore's scrollTo doesn't fire them.
    const userInput = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;
    for (const type of userInput) window.addEventListener(type, onUserScroll, { passive: true });
    window.addEventListener('scroll', onScroll, { passive: true });
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      clearTimeout(endRestore);
      layout.disconnect();
      for (const type of userInput) window.removeEventListener(type, onUserScroll);
      window.removeEventListener('scroll', onScroll);
      document.removeEventListener('visibilitychange', onHidden);
      flush();
    };
  }, [bodyRef, articleId]);

  return progress;
}
