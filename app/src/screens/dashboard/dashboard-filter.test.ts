import { describe, expect, it } from 'vitest';
import {
  articlesQueryOf,
  chooseTab,
  chooseTag,
  clearTag,
  INITIAL_FILTER,
  toggleArchived,
  toggleFavorites,
} from './dashboard-filter';

describe('the dashboard filter', () => {
  it('starts as archived=false with favorite and read unset', () => {
    expect(articlesQueryOf(INITIAL_FILTER)).toEqual({ archived: false });
  });

  it('maps the tabs to the read flag, each with archived false and nothing else', () => {
    const favouriteArchived = toggleFavorites(toggleArchived(INITIAL_FILTER));
    expect(articlesQueryOf(chooseTab(favouriteArchived, 'unread'))).toEqual({
      archived: false,
      is_read: false,
    });
    expect(articlesQueryOf(chooseTab(favouriteArchived, 'read'))).toEqual({ archived: false, is_read: true });
    expect(articlesQueryOf(chooseTab(favouriteArchived, 'all'))).toEqual({ archived: false });
  });

  it('toggles Archived and Favorites without touching the tab', () => {
    const unread = chooseTab(INITIAL_FILTER, 'unread');
    expect(articlesQueryOf(toggleArchived(unread))).toEqual({ archived: true, is_read: false });
    expect(articlesQueryOf(toggleFavorites(unread))).toEqual({
      archived: false,
      favorite: true,
      is_read: false,
    });
    expect(toggleArchived(toggleArchived(unread))).toEqual(unread);
    expect(toggleFavorites(toggleFavorites(unread))).toEqual(unread);
  });

  it('resets the tab when a tag is chosen, keeps the tag across tabs, and Clear removes it', () => {
    const tagged = chooseTag(toggleArchived(chooseTab(INITIAL_FILTER, 'read')), 'Cooking');
    expect(tagged.tab).toBe('all');
    expect(articlesQueryOf(tagged)).toEqual({ archived: false, tag_name: 'Cooking' });
    expect(articlesQueryOf(chooseTab(tagged, 'unread'))).toEqual({
      archived: false,
      is_read: false,
      tag_name: 'Cooking',
    });
    expect(clearTag(tagged)).toEqual(INITIAL_FILTER);
  });
});
