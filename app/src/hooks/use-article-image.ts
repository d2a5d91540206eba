// The picture to show for an article. Pictures on other sites load as they are; a screenshot article's
// image is the owner's alone, behind the bearer token, so it is fetched by the data layer and shown as
// an object URL.
import { useContext, useEffect, useState } from 'react';
import { createObjectUrl, revokeObjectUrl } from '../data';
import { LecternContext } from '../session/use-lectern';

export function useArticleImage(articleId: string, imageUrl: string | null): string | null {
  // Outside the app's provider (component tests) there is no data layer to fetch through.
  const lectern = useContext(LecternContext);
  const isPrivate = lectern !== null && (imageUrl?.startsWith('/api/') ?? false);
  const [objectUrl, setObjectUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!isPrivate || !lectern) return undefined;
    let cancelled = false;
    let created: string | null = null;
    void lectern.articles.screenshotImage(articleId).then((blob) => {
      if (cancelled || !blob) return;
      created = createObjectUrl(blob);
      setObjectUrl(created);
    });
    return () => {
      cancelled = true;
      if (created) revokeObjectUrl(created);
    };
  }, [lectern, articleId, isPrivate]);

  return isPrivate ? objectUrl : imageUrl;
}
