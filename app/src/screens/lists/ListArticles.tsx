import { useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { displayReadingTime, type ArticleSummary } from '@lectern/shared-schema';
import { moveItem, movedAnnouncement } from './list-order';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, RemoveIcon } from './list-icons';

export interface ListArticlesProps {
  articles: readonly ArticleSummary[];
  onReorder: (articleIds: readonly string[]) => void;
  onRemove: (article: ArticleSummary) => void;
}

/**
 * The list's articles in order. Reordering: the up and down buttons, the arrow keys on an article's
 * handle, or dragging the handle with a mouse. Each move is announced for screen readers.
 */
export function ListArticles({ articles, onReorder, onRemove }: ListArticlesProps) {
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<number | null>(null);
  const handles = useRef(new Map<string, HTMLButtonElement>());

  function move(from: number, to: number, refocus: 'handle' | null) {
    const ids = articles.map((a) => a.id);
    const next = moveItem(ids, from, to);
    if (next === ids) return;
    const moved = articles[from]!;
    onReorder(next);
    setAnnouncement(movedAnnouncement(moved.title, next.indexOf(moved.id) + 1, next.length));
    if (refocus) requestAnimationFrame(() => handles.current.get(moved.id)?.focus());
  }

  function onHandleKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const to = { ArrowUp: index - 1, ArrowDown: index + 1, Home: 0, End: articles.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    move(index, to, 'handle');
  }

  return (
    <>
      <p className="sr-only" id="reorder-help">
        Use the up and down arrow keys on an article's handle to move it.
      </p>
      <ol className="list-articles">
        {articles.map((article, index) => (
          <li
            key={article.id}
            className="list-article"
            data-dragging={dragging === index || undefined}
            onDragOver={(event) => {
              if (dragging === null) return;
              event.preventDefault();
              event.dataTransfer.dropEffect = 'move';
            }}
            onDrop={(event) => {
              event.preventDefault();
              if (dragging !== null) move(dragging, index, null);
              setDragging(null);
            }}
          >
            <button
              type="button"
              className="list-article__handle"
              ref={(element) => {
                if (element) handles.current.set(article.id, element);
                else handles.current.delete(article.id);
              }}
              draggable
              onDragStart={(event) => {
                setDragging(index);
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', article.id);
              }}
              onDragEnd={() => setDragging(null)}
              onKeyDown={(event) => onHandleKey(event, index)}
              aria-label={`Reorder ${article.title}, position ${index + 1} of ${articles.length}`}
              aria-describedby="reorder-help"
            >
              <GripIcon />
              <span className="list-article__position" aria-hidden="true">
                {index + 1}
              </span>
            </button>
            <ListThumb imageUrl={article.image_url} title={article.title} />
            <div className="list-article__text">
              <Link to={`/article/${article.id}`} className="list-article__title">
                {article.title}
              </Link>
              <span className="list-article__meta">
                {[article.author, `${displayReadingTime(article.reading_time)} min read`]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </div>
            <div className="list-article__actions">
              <button
                type="button"
                className="icon-button"
                aria-label={`Move ${article.title} up`}
                disabled={index === 0}
                onClick={() => move(index, index - 1, null)}
              >
                <ArrowUpIcon />
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Move ${article.title} down`}
                disabled={index === articles.length - 1}
                onClick={() => move(index, index + 1, null)}
              >
                <ArrowDownIcon />
              </button>
              <button
                type="button"
                className="icon-button list-article__remove"
                aria-label={`Remove ${article.title} from the list`}
                onClick={() => onRemove(article)}
              >
                <RemoveIcon />
              </button>
            </div>
          </li>
        ))}
      </ol>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}

/** The article's picture, or its initial when it has none or the picture won't load. */
function ListThumb({ imageUrl, title }: { imageUrl: string | null; title: string }) {
  const [failed, setFailed] = useState(false);
  if (imageUrl && !failed) {
    return (
      <img
        className="list-article__thumb"
        src={imageUrl}
        alt=""
        loading="lazy"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <span className="list-article__thumb list-article__thumb--empty" aria-hidden="true">
      {title.slice(0, 1).toUpperCase()}
    </span>
  );
}
