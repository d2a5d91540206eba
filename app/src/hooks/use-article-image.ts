// The picture to show for an article. Pictures on other sites load as they are; the server's own copies
// (archived images, a screenshot) are the owner's, behind the bearer token, so the data layer gives them
// from the device's offline library (or fetches them with the token) and they are shown as object URLs.
import { useContext, useEffect, useState } from 'react';
import { createObjectUrl, revokeObjectUrl } from '../data';
import { LecternContext } from '../session/use-lectern';

export function useArticleImage(articleId: string, imageUrl: string | null): string | null {
  // Outside the app's provider (component tests) there is no data layer to fetch through.
  const lectern = useContext(LecternContext);
  const isPrivate = lectern !== null && (imageUrl?.startsWith('/api/') ?? false);
  const [shown, setShown] = useState<{ path: string; url: string } | null>(null);

  useEffect(() => {
    if (!isPrivate || !lectern || !imageUrl) return undefined;
    let cancelled = false;
    let created: string | null = null;
    void lectern.offline.imageBlob(articleId, imageUrl).then((blob) => {
      if (cancelled || !blob) return;
      created = createObjectUrl(blob);
      setShown({ path: imageUrl, url: created });
    });
    return () => {
      cancelled = true;
      if (created) revokeObjectUrl(created);
    };
  }, [lectern, articleId, imageUrl, isPrivate]);

  if (!isPrivate) return imageUrl;
  return shown?.path === imageUrl ? shown.url : null;
}
