import { useCallback, useMemo, useRef, useState } from 'react';
import { PRODUCT_NAME, SEARCH_DEBOUNCE_MS } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { ChartIcon } from '../../components/icons';
import { countedListTotal, type LocalArticleSummary } from '../../data';
import { isEmptyText, useDebouncedValue } from '../../hooks/use-debounced-value';
import {
  useArticleStats,
  usePreparedSearch,
  useSearchResults,
  useSelectedInList,
  useTags,
} from '../../hooks/use-library';
import { useLectern } from '../../session/use-lectern';
import { useSyncState } from '../../hooks/use-sync-state';
import { AnalyticsSection } from './AnalyticsSection';
import { ArticleGrid, PagedArticleGrid } from './ArticleGrid';
import { ArticleToolbar } from './ArticleToolbar';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import {
  articlesQueryOf,
  chooseTab,
  chooseTag,
  clearTag,
  INITIAL_FILTER,
  toggleArchived,
  toggleFavorites,
  type DashboardFilter,
} from './dashboard-filter';
import type { ShortcutAction } from './dashboard-shortcuts';
import { KeyboardIcon } from './dashboard-icons';
import { SaveArticleForm } from './SaveArticleForm';
import { SelectionBar } from './SelectionBar';
import { ShortcutsDialog } from './ShortcutsDialog';
import type { ArticleOrder } from './sort-articles';
import { INITIAL_ORDER } from './start-list';
import { StatsCards } from './StatsCards';
import { SyncStatus } from './SyncStatus';
import { TagSidebar } from './TagSidebar';
import { useArticleActions } from './use-article-actions';
import { useDashboardShortcuts } from './use-dashboard-shortcuts';
import './dashboard.css';

const ANALYTICS_ID = 'dashboard-analytics';
/** How long a search from the list may take before its skeleton cards replace the list. */
const RESULTS_SKELETON_DELAY_MS = 300;

/** / : My Articles. Mounted afresh on every navigation to /, so the filters start over (spec section 4). */
export function DashboardPage() {
  const [filter, setFilter] = useState<DashboardFilter>(INITIAL_FILTER);
  const [search, setSearch] = useState('');
  const [order, setOrder] = useState<ArticleOrder>(INITIAL_ORDER);
  const [analyticsOpen, setAnalyticsOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [selectMode, setSelectMode] = useState(false);
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  const saveRef = useRef<HTMLInputElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  // Spec section 4: a non-empty query runs the search after a 300 ms pause; an empty one reloads the list.
  const activeSearch = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS, isEmptyText);
  // Browsing reads the list from the device a window at a time (PagedArticleGrid); a search's results
  // are held whole, sorted here.
  const query = articlesQueryOf(filter);
  const searchResults = useSearchResults(activeSearch, order);
  const results = activeSearch ? searchResults?.articles : undefined;
  // A search started from the list keeps the list on screen until its results come (a few dozen
  // milliseconds), instead of flashing skeleton cards that would repaint while it reads; only a slower one
  // (the index still being built) shows them.
  const searchPending = activeSearch !== '' && results === undefined;
  const resultsLate = useDebouncedValue(searchPending, RESULTS_SKELETON_DELAY_MS, (pending) => !pending);
  const showingResults = activeSearch !== '' && (!searchPending || resultsLate);
  const stats = useArticleStats();
  const tags = useTags(stats !== undefined);
  usePreparedSearch(tags !== undefined);
  const syncState = useSyncState();
  const lectern = useLectern();

  const onSelect = useCallback((article: LocalArticleSummary, selected: boolean) => {
    setSelectedIds((current) => {
      const next = new Set(current);
      if (selected) next.add(article.id);
      else next.delete(article.id);
      return next;
    });
  }, []);
  const actions = useArticleActions(onSelect);
  // What is selected among the articles the list or the search shows.
  const selectedInList = useSelectedInList(query, selectedIds, !activeSearch);
  const selectedInResults = useMemo(
    () => (results ?? []).filter((article) => selectedIds.has(article.id)).map((article) => article.id),
    [results, selectedIds],
  );
  const shownSelected = activeSearch ? selectedInResults : selectedInList;
  const [listTotal, setListTotal] = useState<number>();
  const shownCount = (activeSearch ? results?.length : listTotal) ?? 0;

  function selectAll() {
    if (activeSearch) {
      setSelectedIds(new Set(results?.map((article) => article.id)));
      return;
    }
    lectern.articles
      .listedIds(query, order)
      .then((ids) => setSelectedIds(new Set(ids)))
      .catch((error: unknown) => console.error('Selecting all failed', error));
  }

  function stopSelecting() {
    setSelectMode(false);
    setSelectedIds(new Set());
  }

  /** Browsing with filters and searching are two modes: changing a filter leaves the search. */
  function changeFilter(next: DashboardFilter) {
    setSearch('');
    setFilter(next);
  }

  useDashboardShortcuts((action: ShortcutAction, event) => {
    if (action === 'focusSave' || action === 'focusSearch') {
      event.preventDefault();
      (action === 'focusSave' ? saveRef : searchRef).current?.focus();
    } else if (action === 'showShortcuts') {
      event.preventDefault();
      setShortcutsOpen(true);
    } else if (event.target === searchRef.current && search) {
      setSearch('');
    } else if (event.target instanceof HTMLInputElement) {
      event.target.blur();
    } else if (selectMode) {
      stopSelecting();
    } else if (analyticsOpen) {
      setAnalyticsOpen(false);
    }
  });

  const viewKey = JSON.stringify([filter, activeSearch, order]);
  return (
    <div className="container dashboard">
      <title>{`My Articles · ${PRODUCT_NAME}`}</title>
      <header className="dashboard__header">
        <div className="dashboard__heading">
          <h1>My Articles</h1>
          <SyncStatus state={syncState} />
        </div>
        <div className="dashboard__header-actions">
          <Button
            variant={analyticsOpen ? 'primary' : 'secondary'}
            size="sm"
            aria-expanded={analyticsOpen}
            aria-controls={analyticsOpen ? ANALYTICS_ID : undefined}
            onClick={() => setAnalyticsOpen((open) => !open)}
          >
            <ChartIcon size={16} />
            {analyticsOpen ? 'Hide Analytics' : 'Show Analytics'}
          </Button>
          <button
            type="button"
            className="icon-button"
            aria-label="Keyboard shortcuts"
            title="Keyboard shortcuts (?)"
            onClick={() => setShortcutsOpen(true)}
          >
            <KeyboardIcon size={20} />
          </button>
        </div>
      </header>

      <StatsCards stats={stats} />

      <section className="card save-card" aria-labelledby="save-title">
        <h2 id="save-title" className="save-card__title">
          Save an article
        </h2>
        <SaveArticleForm urlRef={saveRef} />
      </section>

      {analyticsOpen && <AnalyticsSection id={ANALYTICS_ID} />}

      <div className="dashboard__library">
        <TagSidebar
          tags={tags}
          selected={filter.tag}
          onSelect={(name) => changeFilter(chooseTag(filter, name))}
        />
        <section className="dashboard__articles" aria-label="Articles">
          <ArticleToolbar
            searchRef={searchRef}
            search={search}
            onSearch={setSearch}
            filter={filter}
            onTab={(tab) => changeFilter(chooseTab(filter, tab))}
            onToggleArchived={() => changeFilter(toggleArchived(filter))}
            onToggleFavorites={() => changeFilter(toggleFavorites(filter))}
            order={order}
            onOrder={setOrder}
          />
          <div className="dashboard__status-row">
            {filter.tag !== null && !activeSearch && (
              <p className="tag-filter">
                <span>
                  Tag: <strong>{filter.tag}</strong>
                </span>
                <Button variant="ghost" size="sm" onClick={() => setFilter(clearTag(filter))}>
                  Clear
                </Button>
              </p>
            )}
            {activeSearch && results && (
              <p className="dashboard__result-count" aria-live="polite">
                {`${results.length === 1 ? '1 result' : `${results.length.toLocaleString()} results`} for “${activeSearch}”`}
              </p>
            )}
            <div className="dashboard__select">
              <SelectionBar
                selectMode={selectMode}
                selectedCount={shownSelected.length}
                shownCount={shownCount}
                onStart={() => setSelectMode(true)}
                onSelectAll={selectAll}
                onDeselectAll={() => setSelectedIds(new Set())}
                onDelete={() => actions.askBulkDelete(shownSelected, stopSelecting)}
                onCancel={stopSelecting}
              />
            </div>
          </div>
          {showingResults ? (
            <ArticleGrid
              articles={results}
              libraryEmpty={stats?.total === 0}
              selectMode={selectMode}
              selectedIds={selectedIds}
              viewKey={viewKey}
              {...actions.cardActions}
            />
          ) : (
            <PagedArticleGrid
              query={query}
              order={order}
              onTotal={setListTotal}
              libraryEmpty={stats?.total === 0}
              countedTotal={stats && countedListTotal(query, stats)}
              selectMode={selectMode}
              selectedIds={selectedIds}
              {...actions.cardActions}
            />
          )}
        </section>
      </div>

      <ShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
      <ConfirmDeleteDialog
        request={actions.deletion}
        onCancel={actions.cancelDeletion}
        onConfirm={actions.confirmDeletion}
      />
    </div>
  );
}
