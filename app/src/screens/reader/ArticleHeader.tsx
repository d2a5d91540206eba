import { useState } from 'react';
import { displayReadingTime, type Article } from '@lectern/shared-schema';
import { useArticleImage } from '../../hooks/use-article-image';
import { formatDate } from './format-date';

export interface ArticleHeaderProps {
  article: Article;
  /** The excerpt, or the description when there is no body to summarise. */
  summary: string | null;
}

export function ArticleHeader({ article, summary }: ArticleHeaderProps) {
  const [imageFailed, setImageFailed] = useState(false);
  const image = useArticleImage(article.id, article.image_url ?? article.screenshot_url);
  const published = formatDate(article.published_date);
  return (
    <header className="reader-header">
      {image && !imageFailed && (
        <img className="reader-hero" src={image} alt="" onError={() => setImageFailed(true)} />
      )}
      {article.site_name && <p className="reader-site">{article.site_name}</p>}
      <h1 className="reader-title">{article.title}</h1>
      <p className="reader-byline">
        {article.author && <span className="reader-byline__author">By {article.author}</span>}
        {published && article.published_date && <time dateTime={article.published_date}>{published}</time>}
        <span>{displayReadingTime(article.reading_time)} min read</span>
      </p>
      {article.tags.length > 0 && (
        <ul className="reader-tags" aria-label="Tags">
          {article.tags.map((tag) => (
            <li key={tag} className="badge">
              {tag}
            </li>
          ))}
        </ul>
      )}
      {summary && (
        <section className="reader-summary" aria-label="Summary">
          <p>{summary}</p>
        </section>
      )}
    </header>
  );
}
