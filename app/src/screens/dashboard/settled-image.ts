import { createContext, useContext, useRef } from 'react';

/** True while the grid around is being flung (scroll-speed.ts): its cards' pictures wait. */
export const FlingContext = createContext(false);

/**
 * The picture a card shows: none yet while the grid is flung past it, since a picture started for a card
 * on screen for a frame or two is work (a request, a decode, an error or a paint) for nothing. A picture
 * once started stays, fling or not, so nothing on screen goes back to its placeholder.
 */
export function useSettledImageUrl(imageUrl: string | null): string | null {
  const flung = useContext(FlingContext);
  const started = useRef<string | null>(null);
  if (imageUrl === null || (flung && started.current !== imageUrl)) return null;
  // The same URL every time this card renders it: a render done twice sets the same.
  started.current = imageUrl;
  return imageUrl;
}
