import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Highlight } from '@lectern/shared-schema';
import { formatDate } from '../reader/format-date';
import { useArticleImage } from '../../hooks/use-article-image';

export function HighlightCard({ highlight }: { highlight: Highlight }) {
  const [imageFailed, setImageFailed] = useState(false);
  const title = highlight.article_title || 'Untitled article';
  // A screenshot article's image needs the token: the shared hook fetches it into an object URL.
  const image = useArticleImage(highlight.article_id, highlight.article_image);
  return (
    <article className="highlight-card">
      <header className="highlight-card__article">
        {image && !imageFailed ? (
          <img
            className="highlight-card__image"
            src={image}
            alt=""
            loading="lazy"
            onError={() => setImageFailed(true)}
          />
        ) : (
          <span className="highlight-card__image highlight-card__image--empty" aria-hidden="true">
            {title.slice(0, 1).toUpperCase()}
          </span>
        )}
        <Link to={`/article/${highlight.article_id}`} className="highlight-card__title">
          {title}
        </Link>
      </header>
      <blockquote className="highlight-card__quote">{highlight.highlighted_text}</blockquote>
      <footer className="highlight-card__date">
        <time dateTime={highlight.created_at}>{formatDate(highlight.created_at)}</time>
      </footer>
    </article>
  );
}
