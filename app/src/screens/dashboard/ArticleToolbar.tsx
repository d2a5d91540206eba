import type { Ref } from 'react';
import { SearchIcon } from '../../components/icons';
import { READ_TABS, type DashboardFilter, type ReadTab } from './dashboard-filter';
import { isArticleOrder, SORT_OPTIONS, type ArticleOrder } from './sort-articles';

export interface ArticleToolbarProps {
  searchRef: Ref<HTMLInputElement>;
  search: string;
  onSearch(text: string): void;
  filter: DashboardFilter;
  onTab(tab: ReadTab): void;
  onToggleArchived(): void;
  onToggleFavorites(): void;
  order: ArticleOrder;
  onOrder(order: ArticleOrder): void;
}

/** Live search, the read tabs, the Archived and Favorites toggles and the sort select. */
export function ArticleToolbar(props: ArticleToolbarProps) {
  const { filter, search } = props;
  return (
    <div className="article-toolbar">
      <div className="search-box">
        <label htmlFor="article-search" className="sr-only">
          Search articles
        </label>
        <SearchIcon size={18} />
        <input
          ref={props.searchRef}
          id="article-search"
          className="input search-box__input"
          type="search"
          placeholder="Search articles…"
          autoComplete="off"
          value={search}
          onChange={(event) => props.onSearch(event.target.value)}
        />
        <kbd className="search-box__hint" aria-hidden="true">
          /
        </kbd>
      </div>
      <div className="article-toolbar__filters">
        <div className="filter-tabs" role="group" aria-label="Show">
          {READ_TABS.map(({ tab, label }) => (
            <button
              key={tab}
              type="button"
              className="filter-tabs__option"
              aria-pressed={!search && filter.tab === tab}
              onClick={() => props.onTab(tab)}
            >
              {label}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="toggle-chip"
          aria-pressed={!search && filter.archived}
          onClick={props.onToggleArchived}
        >
          Archived
        </button>
        <button
          type="button"
          className="toggle-chip"
          aria-pressed={!search && filter.favorites}
          onClick={props.onToggleFavorites}
        >
          Favorites
        </button>
        <label className="sort-select">
          <span className="sort-select__label">Sort</span>
          <select
            className="input sort-select__input"
            value={props.order}
            onChange={(event) => {
              if (isArticleOrder(event.target.value)) props.onOrder(event.target.value);
            }}
          >
            {SORT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}
