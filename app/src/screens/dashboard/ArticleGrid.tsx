import { useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { DASHBOARD_SKELETON_COUNT, MESSAGES, type ArticlesQuery } from '@lectern/shared-schema';
import { Link } from 'react-router-dom';
import { LecternContext } from '../../session/use-lectern';
import { Button, buttonClassName } from '../../components/Button';
import { SkeletonCard } from '../../components/Skeleton';
import { listKeyOf, type ArticleOrder, type ArticlePage, type LocalArticleSummary } from '../../data';
import { useArticleChunks, type ArticleChunks } from '../../hooks/use-article-chunks';
import { useOfflineAvailability } from '../../hooks/use-offline-availability';
import { ArticleCard, type ArticleCardActions } from './ArticleCard';
import { countOf } from './article-format';
import { CardSlots } from './card-slots';
import { FlingContext } from './settled-image';
import { READ_CHUNK } from './start-list';
import { useIncrementalCount } from './use-incremental-count';
import { useWindowedGrid } from './use-windowed-grid';

/** Cards shown first. */
export const ARTICLE_PAGE_SIZE = 24;

interface GridOptions extends ArticleCardActions {
  /** True when the library holds no article at all (the other empty state). */
  libraryEmpty: boolean;
  /**
   * How many articles the library's counts say the list holds, where they tell it (countedListTotal): a list
   * answering none while they say otherwise is behind them (a first sync's cards just stored, the list's
   * read not answered again yet) and shows as loading, not as "No articles found".
   */
  countedTotal?: number;
  selectMode: boolean;
  selectedIds: ReadonlySet<string>;
}

export interface ArticleGridProps extends GridOptions {
  /** Undefined while the device hasn't answered yet. */
  articles: LocalArticleSummary[] | undefined;
  /** Changes with the filter, search and sort: the grid starts again from its first page. */
  viewKey: string;
}

/** A grid of articles held whole (search results). */
export function ArticleGrid({ articles, viewKey, ...options }: ArticleGridProps) {
  const layout = useGridLayout(articles?.length ?? 0, viewKey);
  return (
    <GridBody
      total={articles?.length}
      articleAt={(index) => articles?.[index]}
      layout={layout}
      {...options}
    />
  );
}

export interface PagedArticleGridProps extends GridOptions {
  query: ArticlesQuery;
  order: ArticleOrder;
  /** Told the list's total once it answers, and again when it changes (Select All's bar). */
  onTotal?(total: number): void;
}

/**
 * The dashboard's list, read from the device a chunk at a time around the cards built: a switch of
 * filter, tag or sort reads the list's total and its first cards, a scroll the chunk coming into view.
 * What is shown stays until the new list or chunk answers.
 */
export function PagedArticleGrid({ query, order, onTotal, ...options }: PagedArticleGridProps) {
  const key = listKeyOf(query, order);
  const [shown, setShown] = useState<ArticleChunks>();
  useReadAhead(query, order, setShown);
  const current = shown?.key === key;
  const currentTotal = current ? shown.total : undefined;
  useEffect(() => {
    // While another list is on its way, the last total stays.
    if (currentTotal !== undefined) onTotal?.(currentTotal);
  }, [onTotal, currentTotal]);
  // The grid shows the list that answered last, and starts again from its first page when it changes.
  const layout = useGridLayout(shown?.total ?? 0, shown?.key ?? key);
  // A chunk more than the cards built above, two below: the next chunk is read while those read still
  // cover the cards coming into view, so a scroll never waits on a placeholder.
  const firstChunk = current ? Math.max(0, Math.floor(layout.start / READ_CHUNK) - 1) : 0;
  const endChunk = current ? Math.ceil(layout.end / READ_CHUNK) + 2 : 1;
  useArticleChunks(query, order, firstChunk, endChunk, READ_CHUNK, setShown);
  const articleAt = (index: number): LocalArticleSummary | undefined =>
    shown?.chunks.get(Math.floor(index / READ_CHUNK))?.[index % READ_CHUNK];
  return <GridBody total={shown?.total} articleAt={articleAt} layout={layout} {...options} />;
}

/**
 * The first chunk the app's start read ahead for this list, if it did (data/reads/read-ahead.ts): shown
 * before the first paint when it has answered, else as soon as it does, unless the live read answered
 * first. Taken before the paint, so a list read at start shows in the dashboard's first frame.
 */
function useReadAhead(
  query: ArticlesQuery,
  order: ArticleOrder,
  setShown: (update: (shown: ArticleChunks | undefined) => ArticleChunks | undefined) => void,
) {
  const lectern = useContext(LecternContext);
  const [mountedWith] = useState(() => ({ query, order }));
  useLayoutEffect(() => {
    const ahead = lectern?.articles.takeReadAhead(mountedWith.query, mountedWith.order, 0, READ_CHUNK);
    if (!ahead) return;
    const key = listKeyOf(mountedWith.query, mountedWith.order);
    const show = (page: ArticlePage | undefined) => {
      if (!page) return;
      setShown(
        (shown) => shown ?? { key, total: page.total, chunks: new Map([[0, page.articles]]), error: null },
      );
    };
    if (ahead.answered) show(ahead.answered);
    else void ahead.answer.then(show);
  }, [lectern, mountedWith, setShown]);
}

/** How many cards are shown (a page, then more as the end comes near) and which of them are built. */
function useGridLayout(total: number, viewKey: string) {
  const { visible, hasMore, showMore, sentinelRef } = useIncrementalCount(total, ARTICLE_PAGE_SIZE, viewKey);
  // Of the cards shown, only those on screen (and a screen's height around) are built.
  const { listRef, columns, start, end, above, below, flung } = useWindowedGrid(visible, total);
  return { visible, hasMore, showMore, sentinelRef, listRef, columns, start, end, above, below, flung };
}

interface GridBodyProps extends GridOptions {
  /** How many articles the list holds; undefined while the device hasn't answered yet. */
  total: number | undefined;
  /** The article at a place of the list; undefined while its window is being read. */
  articleAt(index: number): LocalArticleSummary | undefined;
  layout: ReturnType<typeof useGridLayout>;
}

function GridBody({
  total,
  articleAt,
  layout,
  libraryEmpty,
  countedTotal,
  selectMode,
  selectedIds,
  ...actions
}: GridBodyProps) {
  const { visible, hasMore, showMore, sentinelRef, listRef, columns, start, end, above, below, flung } =
    layout;
  const built: { index: number; article: LocalArticleSummary | undefined }[] = [];
  // Chunks answer apart: after a write moved the list, one may still show an article another has too.
  const ids = new Set<string>();
  for (let index = start; index < end; index += 1) {
    const article = articleAt(index);
    const fresh = article !== undefined && !ids.has(article.id);
    if (fresh) ids.add(article.id);
    built.push({ index, article: fresh ? article : undefined });
  }
  const [cardSlots] = useState(() => new CardSlots());
  const slotOf = cardSlots.assign([...ids]);
  // Followed for the built cards only: those a screen away are answered before they come into view.
  const offline = useOfflineAvailability(
    built.flatMap(({ article }) => (article === undefined ? [] : [article])),
  );

  if (total === undefined || (total === 0 && (countedTotal ?? 0) > 0)) {
    return (
      <div className="article-grid" role="status" aria-busy="true" aria-label="Loading articles">
        {Array.from({ length: DASHBOARD_SKELETON_COUNT }, (_, i) => (
          <SkeletonCard key={i} />
        ))}
      </div>
    );
  }

  if (total === 0) {
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

  const remaining = total - visible;
  return (
    <FlingContext.Provider value={flung}>
      <ul
        ref={listRef}
        className="article-grid"
        aria-label={countOf(total, 'article')}
        data-flung={flung ? '' : undefined}
      >
        {above > 0 && <GridSpacer height={above} />}
        {built.map(({ index, article }) =>
          article ? (
            <CardItem
              key={`slot-${slotOf.get(article.id)}`}
              articleId={article.id}
              row={Math.floor(index / columns)}
              index={index}
              total={total}
            >
              <ArticleCard
                article={article}
                selectMode={selectMode}
                selected={selectedIds.has(article.id)}
                offline={offline.get(article.id)}
                {...actions}
              />
            </CardItem>
          ) : (
            // Its window is on its way: a placeholder of a card's size meanwhile.
            <li
              key={`placeholder-${index}`}
              className="article-grid__item"
              data-row={Math.floor(index / columns)}
              data-placeholder=""
              aria-hidden="true"
            >
              <SkeletonCard />
            </li>
          ),
        )}
        {below > 0 && <GridSpacer height={below} />}
      </ul>
      {hasMore && (
        <div className="article-grid__more" ref={sentinelRef}>
          <Button variant="secondary" onClick={showMore}>
            Show more ({remaining.toLocaleString()} left)
          </Button>
        </div>
      )}
    </FlingContext.Provider>
  );
}

interface CardItemProps {
  articleId: string;
  row: number;
  index: number;
  total: number;
  children: ReactNode;
}

/**
 * A card's place in the grid. Its nodes are reused for another card once this one leaves the cards built
 * (card-slots.ts): a focus left in them belonged to the card that left, so it goes, as it went when the
 * nodes were removed.
 */
function CardItem({ articleId, row, index, total, children }: CardItemProps) {
  const itemRef = useRef<HTMLLIElement>(null);
  const shown = useRef(articleId);
  useLayoutEffect(() => {
    if (shown.current === articleId) return;
    shown.current = articleId;
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && itemRef.current?.contains(focused)) focused.blur();
  }, [articleId]);
  return (
    <li
      ref={itemRef}
      className="article-grid__item"
      data-row={row}
      aria-posinset={index + 1}
      aria-setsize={total}
    >
      {children}
    </li>
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
