import { DASHBOARD_SKELETON_COUNT, MESSAGES } from '@lectern/shared-schema';
import { Link } from 'react-router-dom';
import { Button, buttonClassName } from '../../components/Button';
import { SkeletonCard } from '../../components/Skeleton';
import type { LocalArticleSummary } from '../../data';
import { ArticleCard, type ArticleCardActions } from './ArticleCard';
import { countOf } from './article-format';
import { useIncrementalCount } from './use-incremental-count';
import { useOfflineAvailability } from '../../hooks/use-offline-availability';
import { useWindowedGrid } from './use-windowed-grid';

/** Cards shown first, and before the whole list has answered. */
export const ARTICLE_PAGE_SIZE = 24;

export interface ArticleGridProps extends ArticleCardActions {
  /** Undefined while the device hasn't answered yet. */
  articles: LocalArticleSummary[] | undefined;
  /** Only the first cards, read before the whole list (which brings the count and the rest). */
  partial?: boolean;
  /** True when the library holds no article at all (the other empty state). */
  libraryEmpty: boolean;
  selectMode: boolean;
  selectedIds: ReadonlySet<string>;
  /** Changes with the filter, search and sort: the grid starts again from its first page. */
  viewKey: string;
}

export function ArticleGrid({
  articles,
  partial = false,
  libraryEmpty,
  selectMode,
  selectedIds,
  viewKey,
  ...actions
}: ArticleGridProps) {
  const { visible, hasMore, showMore, sentinelRef } = useIncrementalCount(
    articles?.length ?? 0,
    ARTICLE_PAGE_SIZE,
    viewKey,
  );
  const shown = articles?.slice(0, visible);
  // Of the cards shown, only those on screen (and a screen's height around) are built.
  const { listRef, columns, start, end, above, below } = useWindowedGrid(shown?.length ?? 0);
  const built = shown?.slice(start, end) ?? [];
  // Followed for the built cards only: those a screen away are answered before they come into view.
  const offline = useOfflineAvailability(built);

  if (!articles) {
    return (
      <div className="article-grid" role="status" aria-busy="true" aria-label="Loading articles">
        {Array.from({ length: DASHBOARD_SKELETON_COUNT }, (_, i) => (
          <SkeletonCard key={i} />
        ))}
      </div>
    );
  }

  if (articles.length === 0) {
    return libraryEmpty ? (
      <div className="empty-state">
        <p className="empty-state__title">{MESSAGES.noArticlesYet}</p>
        <p>Paste a link above, or share one to Lectern from your phone.</p>
        <Link to="/import" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
          Import from Pocket, Instapaper…
        </Link>
      </div>
    ) : (
      <div className="empty-state">
        <p className="empty-state__title">{MESSAGES.noArticlesFound}</p>
        <p>{MESSAGES.noArticlesFoundHint}</p>
      </div>
    );
  }

  const remaining = articles.length - visible;
  return (
    <>
      <ul
        ref={listRef}
        className="article-grid"
        aria-label={partial ? 'Articles' : countOf(articles.length, 'article')}
        aria-busy={partial || undefined}
      >
        {above > 0 && <GridSpacer height={above} />}
        {built.map((article, i) => (
          <li
            key={article.id}
            className="article-grid__item"
            data-row={Math.floor((start + i) / columns)}
            aria-posinset={start + i + 1}
            aria-setsize={articles.length}
          >
            <ArticleCard
              article={article}
              selectMode={selectMode}
              selected={selectedIds.has(article.id)}
              offline={offline.get(article.id)}
              {...actions}
            />
          </li>
        ))}
        {below > 0 && <GridSpacer height={below} />}
      </ul>
      {hasMore && !partial && (
        <div className="article-grid__more" ref={sentinelRef}>
          <Button variant="secondary" onClick={showMore}>
            Show more ({remaining.toLocaleString()} left)
          </Button>
        </div>
      )}
    </>
  );
}

/**
 * Stands for the rows not built: a full-width row of their height. The grid's gap after it is already
 * counted in `height`, hence the gap taken off.
 */
function GridSpacer({ height }: { height: number }) {
  return (
    <li
      className="article-grid__spacer"
      aria-hidden="true"
      style={{ height: `calc(${height}px - var(--space-4))` }}
    />
  );
}
