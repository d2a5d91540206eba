import { memo } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/Button';
import type { LocalArticleSummary, OfflineAvailability } from '../../data';
import { articleSource, formatDate, readingTimeLabel } from './article-format';
import {
  ArchiveIcon,
  OfflineDownloadingIcon,
  OfflineReadyIcon,
  StarIcon,
  TrashIcon,
} from './dashboard-icons';
import { useArticleImage } from '../../hooks/use-article-image';
import { ArticleImage } from './ArticleImage';
import { useSettledImageUrl } from './settled-image';

export interface ArticleCardActions {
  onToggleFavorite(article: LocalArticleSummary): void;
  onToggleArchive(article: LocalArticleSummary): void;
  onDelete(article: LocalArticleSummary): void;
  onRetrySave(article: LocalArticleSummary): void;
  /** An imported article whose page could not be fetched: fetch it again. */
  onRetryFetch(article: LocalArticleSummary): void;
  onSelect(article: LocalArticleSummary, selected: boolean): void;
}

export interface ArticleCardProps extends ArticleCardActions {
  article: LocalArticleSummary;
  selectMode: boolean;
  selected: boolean;
  /** Whether the article is on the device for reading offline, pictures included, or still coming. */
  offline?: OfflineAvailability;
}

/** One saved article in the grid: what it is, where from, its state, and what can be done with it. */
export const ArticleCard = memo(function ArticleCard({
  article,
  selectMode,
  selected,
  offline,
  ...actions
}: ArticleCardProps) {
  const titleId = `article-${article.id}-title`;
  const image = useArticleImage(article.id, useSettledImageUrl(article.image_url));
  const pending = article.pendingSave;
  const classes = [
    'article-card',
    article.is_read ? 'article-card--read' : '',
    selected ? 'article-card--selected' : '',
    pending ? `article-card--${pending.state}` : '',
  ];
  return (
    <article
      className={classes.filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      // In select mode the whole card is a target for the mouse; the checkbox is the keyboard's way.
      onClick={(event) => {
        const onCheckbox = event.target instanceof Element && event.target.closest('label') !== null;
        if (selectMode && !onCheckbox) actions.onSelect(article, !selected);
      }}
    >
      <div
        className={
          article.image_url ? 'article-card__media' : 'article-card__media article-card__media--none'
        }
      >
        <ArticleImage
          imageUrl={image}
          title={article.title}
          screenshot={article.article_type === 'screenshot'}
        />
        {selectMode && (
          <label className="article-card__select">
            <input
              type="checkbox"
              checked={selected}
              onChange={(event) => actions.onSelect(article, event.target.checked)}
            />
            <span className="sr-only">Select “{article.title}”</span>
          </label>
        )}
      </div>
      <div className="article-card__body">
        <p className="article-card__source">
          <span>{articleSource(article)}</span>
          {/* Present on every card, shown when unread: a card's nodes are reused for the next card
              (card-slots.ts), and elements that come and go with the article would be built each time. */}
          <span className="article-card__unread" hidden={article.is_read}>
            Unread
          </span>
        </p>
        <h3 className="article-card__title" id={titleId}>
          {selectMode ? (
            article.title
          ) : (
            <Link to={`/article/${article.id}`} className="article-card__link">
              {article.title}
            </Link>
          )}
        </h3>
        {article.description && <p className="article-card__description">{article.description}</p>}
        <ul className="article-card__tags" aria-label="Tags" hidden={article.tags.length === 0}>
          {article.tags.map((tag, place) => (
            // By place, for the same reason: the next card's tags are written into these chips.
            <li key={place} className="tag-chip">
              {tag}
            </li>
          ))}
        </ul>
        {pending && <PendingSave article={article} actions={actions} />}
        {!pending && article.fetch_state && <PageFetch article={article} actions={actions} />}
        <div className="article-card__footer">
          <p className="article-card__meta">
            {article.author && <span className="article-card__author">{article.author}</span>}
            <span>{readingTimeLabel(article.reading_time)}</span>
            <span>
              Saved <time dateTime={article.created_at}>{formatDate(article.created_at)}</time>
            </span>
            {offline && <OfflineMark state={offline} />}
          </p>
          {!selectMode && pending?.state !== 'failed' && <CardActions article={article} actions={actions} />}
        </div>
      </div>
    </article>
  );
});

const OFFLINE_LABELS: Record<OfflineAvailability, string> = {
  offline: 'Available offline',
  downloading: 'Downloading for offline reading',
};

/** A small mark, its words for screen readers and as a tooltip: the card stays as it was. */
function OfflineMark({ state }: { state: OfflineAvailability }) {
  const label = OFFLINE_LABELS[state];
  return (
    <span className={`offline-mark offline-mark--${state}`} title={label} data-offline={state}>
      {state === 'offline' ? <OfflineReadyIcon /> : <OfflineDownloadingIcon />}
      <span className="sr-only">{label}</span>
    </span>
  );
}

function CardActions({ article, actions }: { article: LocalArticleSummary; actions: ArticleCardActions }) {
  const name = `“${article.title}”`;
  return (
    <div className="article-card__actions">
      <button
        type="button"
        className="card-action card-action--favorite"
        aria-pressed={article.is_favorite}
        aria-label={`Favorite ${name}`}
        title={article.is_favorite ? 'Remove from favorites' : 'Add to favorites'}
        onClick={() => actions.onToggleFavorite(article)}
      >
        <StarIcon filled={article.is_favorite} />
      </button>
      <button
        type="button"
        className="card-action"
        aria-pressed={article.is_archived}
        aria-label={`Archive ${name}`}
        title={article.is_archived ? 'Move back to the library' : 'Archive'}
        onClick={() => actions.onToggleArchive(article)}
      >
        <ArchiveIcon />
      </button>
      <button
        type="button"
        className="card-action card-action--danger"
        aria-label={`Delete ${name}`}
        title="Delete"
        onClick={() => actions.onDelete(article)}
      >
        <TrashIcon />
      </button>
    </div>
  );
}

/** A save the server hasn't answered yet, or refused: its state, and Retry or Delete when refused. */
function PendingSave({ article, actions }: { article: LocalArticleSummary; actions: ArticleCardActions }) {
  const pending = article.pendingSave;
  if (!pending) return null;
  if (pending.state === 'saving') {
    return (
      <p className="pending-save pending-save--saving">
        <span className="pending-save__dot" aria-hidden="true" />
        Waiting to sync: the article will be fetched when the server can be reached.
      </p>
    );
  }
  return (
    <div className="pending-save pending-save--failed" role="group" aria-label="Save refused">
      <p>
        <strong>Couldn’t save.</strong> {pending.error}
      </p>
      <div className="pending-save__actions">
        <Button size="sm" variant="secondary" onClick={() => actions.onRetrySave(article)}>
          Retry
        </Button>
        <Button size="sm" variant="ghost" onClick={() => actions.onDelete(article)}>
          Delete
        </Button>
      </div>
    </div>
  );
}

/** An imported article whose page is still being fetched, or could not be: the reason, and Retry. */
function PageFetch({ article, actions }: { article: LocalArticleSummary; actions: ArticleCardActions }) {
  if (article.fetch_state === 'pending') {
    return (
      <p className="pending-save pending-save--saving">
        <span className="pending-save__dot" aria-hidden="true" />
        Fetching page…
      </p>
    );
  }
  return (
    <div className="pending-save pending-save--failed" role="group" aria-label="Page not fetched">
      <p>
        <strong>Couldn’t fetch the page.</strong> {article.fetch_error}
      </p>
      <div className="pending-save__actions">
        <Button size="sm" variant="secondary" onClick={() => actions.onRetryFetch(article)}>
          Retry
        </Button>
      </div>
    </div>
  );
}
