import { useState } from 'react';
import { CameraIcon } from './dashboard-icons';

export interface ArticleImageProps {
  imageUrl: string | null;
  title: string;
  screenshot?: boolean;
}

/** An article's picture; its initial on a tint when it has none or the picture fails to load. */
export function ArticleImage({ imageUrl, title, screenshot = false }: ArticleImageProps) {
  const [failed, setFailed] = useState<string | null>(null);
  if (imageUrl && failed !== imageUrl) {
    return (
      // Its own element for each picture: a card's nodes are reused for another card (card-slots.ts), and
      // an image given a new source shows the old one until the new has loaded.
      <img
        key={imageUrl}
        src={imageUrl}
        alt=""
        loading="lazy"
        decoding="async"
        referrerPolicy="no-referrer"
        onError={() => setFailed(imageUrl)}
      />
    );
  }
  return (
    <span className="article-card__placeholder" aria-hidden="true">
      {screenshot ? <CameraIcon size={28} /> : title.trim().charAt(0)}
    </span>
  );
}
