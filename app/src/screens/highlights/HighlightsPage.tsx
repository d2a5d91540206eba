import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { SEARCH_DEBOUNCE_MS, type Highlight } from '@lectern/shared-schema';
import { SearchIcon } from '../../components/icons';
import { SkeletonCard } from '../../components/Skeleton';
import { useLectern } from '../../session/use-lectern';
import { isEmptyText, useDebouncedValue } from '../../hooks/use-debounced-value';
import { useLiveResult } from '../../hooks/use-live-result';
import { HighlightCard } from './HighlightCard';
import '../../styles/screens.css';
import './highlights.css';

/** /highlights: every highlight with its article, the stats of spec section 3, and search. */
export function HighlightsPage() {
  const lectern = useLectern();
  const searchId = useId();
  const [query, setQuery] = useState('');
  const settledQuery = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS, isEmptyText);
  const all = useLiveResult(() => lectern.highlights.list(), [lectern]);
  const found = useLiveResult(
    () => (settledQuery ? lectern.highlights.search(settledQuery) : Promise.resolve(null)),
    [lectern, settledQuery],
  );

  const stats = all.status === 'ready' ? all.value.stats : null;
  const searching = settledQuery.length > 0;
  const listed = all.status === 'ready' ? all.value.highlights : null;
  const matches = found.status === 'ready' && found.value ? found.value.highlights : null;
  const shown: readonly Highlight[] | null = searching ? matches : listed;

  return (
    <div className="highlights-page container">
      <header className="screen-header">
        <div>
          <h1 className="screen-header__title">Highlights</h1>
          <p className="screen-header__lead">Every passage you kept, newest first.</p>
        </div>
      </header>

      <ul className="stat-cards" aria-label="Highlight stats">
        <li className="stat-card">
          <span className="stat-card__value">{stats?.total_highlights ?? '–'}</span>
          <span className="stat-card__label">Total highlights</span>
        </li>
        <li className="stat-card">
          <span className="stat-card__value">{stats?.articles_with_highlights ?? '–'}</span>
          <span className="stat-card__label">Articles with highlights</span>
        </li>
        <li className="stat-card">
          <span className="stat-card__value">{stats?.highlights_this_week ?? '–'}</span>
          <span className="stat-card__label">This week</span>
        </li>
      </ul>

      <div className="highlights-search" role="search">
        <label htmlFor={searchId} className="sr-only">
          Search highlights
        </label>
        <SearchIcon className="highlights-search__icon" />
        <input
          id={searchId}
          type="search"
          className="input highlights-search__input"
          placeholder="Search highlights"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>

      <p className="sr-only" role="status">
        {searching && shown ? `${shown.length} ${shown.length === 1 ? 'highlight' : 'highlights'} found` : ''}
      </p>

      {shown === null ? (
        <div className="highlights-grid" aria-busy="true" aria-label="Loading highlights">
          <SkeletonCard />
          <SkeletonCard />
          <SkeletonCard />
        </div>
      ) : shown.length === 0 ? (
        <div className="highlights-empty card card--padded">
          {searching ? (
            <p>No highlights match “{settledQuery}”.</p>
          ) : (
            <>
              <h2 className="highlights-empty__title">No highlights yet</h2>
              <p>
                Open an article, turn on highlight mode and select a passage. It will appear here.{' '}
                <Link to="/">Go to your articles</Link>
              </p>
            </>
          )}
        </div>
      ) : (
        <div className="highlights-grid">
          {shown.map((highlight) => (
            <HighlightCard key={highlight.id} highlight={highlight} />
          ))}
        </div>
      )}
    </div>
  );
}
