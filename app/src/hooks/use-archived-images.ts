// The reader's body names the server's copies of its images in `data-archived-src` (the sanitizer moves
// them there: an <img src> could not send the token); this fills each in from the device's offline library,
// or from the server with the token when online, as object URLs freed with the body.
import { useContext, useEffect, type RefObject } from 'react';
import { createObjectUrl, revokeObjectUrl } from '../data';
import { LecternContext } from '../session/use-lectern';

export const ARCHIVED_SRC_ATTRIBUTE = 'data-archived-src';

export function useArchivedImages(
  bodyRef: RefObject<HTMLElement | null>,
  articleId: string,
  html: string,
): void {
  const lectern = useContext(LecternContext);
  useEffect(() => {
    const root = bodyRef.current;
    if (!lectern || !root) return undefined;
    let cancelled = false;
    const created: string[] = [];
    const images = root.querySelectorAll<HTMLImageElement>(`img[${ARCHIVED_SRC_ATTRIBUTE}]`);
    for (const image of images) {
      const path = image.getAttribute(ARCHIVED_SRC_ATTRIBUTE);
      if (!path) continue;
      void lectern.offline.imageBlob(articleId, path).then((blob) => {
        if (cancelled || !blob) return;
        const url = createObjectUrl(blob);
        created.push(url);
        image.src = url;
      });
    }
    return () => {
      cancelled = true;
      for (const url of created) revokeObjectUrl(url);
    };
  }, [bodyRef, lectern, articleId, html]);
}
