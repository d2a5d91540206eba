// The article filter of spec section 4: it starts as archived=false with favorite and read unset; the tabs
// set archived false and the read flag; Archived and Favorites toggle their flags; choosing a tag resets
// the tab (the search is reset by the screen).
import type { ArticlesQuery } from '@lectern/shared-schema';

export type ReadTab = 'all' | 'unread' | 'read';

export interface DashboardFilter {
  tab: ReadTab;
  archived: boolean;
  favorites: boolean;
  tag: string | null;
}

export const INITIAL_FILTER: DashboardFilter = { tab: 'all', archived: false, favorites: false, tag: null };

export const READ_TABS: readonly { tab: ReadTab; label: string }[] = [
  { tab: 'all', label: 'All' },
  { tab: 'unread', label: 'Unread' },
  { tab: 'read', label: 'Read' },
];

/** All: archived false, nothing else; Unread and Read add the read flag. The tag filter stays. */
export function chooseTab(filter: DashboardFilter, tab: ReadTab): DashboardFilter {
  return { ...filter, tab, archived: false, favorites: false };
}

export function toggleArchived(filter: DashboardFilter): DashboardFilter {
  return { ...filter, archived: !filter.archived };
}

export function toggleFavorites(filter: DashboardFilter): DashboardFilter {
  return { ...filter, favorites: !filter.favorites };
}

export function chooseTag(filter: DashboardFilter, tag: string): DashboardFilter {
  return { ...chooseTab(filter, 'all'), tag };
}

export function clearTag(filter: DashboardFilter): DashboardFilter {
  return { ...filter, tag: null };
}

/** GET /articles's query for the filter, nulls omitted. */
export function articlesQueryOf(filter: DashboardFilter): ArticlesQuery {
  const query: ArticlesQuery = { archived: filter.archived };
  if (filter.favorites) query.favorite = true;
  if (filter.tab !== 'all') query.is_read = filter.tab === 'read';
  if (filter.tag !== null) query.tag_name = filter.tag;
  return query;
}
