// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { DASHBOARD_SKELETON_COUNT, MESSAGES } from '@lectern/shared-schema';
import type { LocalArticleSummary } from '../../data';
import { articleSummary } from '../../data/testing/article-summary';
import { ArticleGrid, type ArticleGridProps } from './ArticleGrid';

const article = (n: number): LocalArticleSummary => articleSummary(`article-${n}`, { title: `Article ${n}` });

const noop = () => {};

function grid(props: Partial<ArticleGridProps>) {
  return (
    <MemoryRouter>
      <ArticleGrid
        articles={undefined}
        libraryEmpty={false}
        selectMode={false}
        selectedIds={new Set()}
        viewKey="all"
        onToggleFavorite={noop}
        onToggleArchive={noop}
        onDelete={noop}
        onRetrySave={noop}
        onRetryFetch={noop}
        onSelect={noop}
        {...props}
      />
    </MemoryRouter>
  );
}

const renderGrid = (props: Partial<ArticleGridProps>) => render(grid(props));

describe('ArticleGrid', () => {
  afterEach(cleanup);

  it('shows 6 skeleton cards until the device answers', () => {
    renderGrid({ articles: undefined });
    expect(screen.getByRole('status', { name: 'Loading articles' })).toBeTruthy();
    expect(document.querySelectorAll('.skeleton-card')).toHaveLength(DASHBOARD_SKELETON_COUNT);
  });

  it('tells an empty library from a filter that finds nothing', () => {
    renderGrid({ articles: [], libraryEmpty: true });
    expect(screen.getByText(MESSAGES.noArticlesYet)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Import from Pocket, Instapaper…' }).getAttribute('href')).toBe(
      '/import',
    );
    expect(screen.queryByText(MESSAGES.noArticlesFound)).toBeNull();
    cleanup();
    renderGrid({ articles: [], libraryEmpty: false });
    expect(screen.getByText(MESSAGES.noArticlesFound)).toBeTruthy();
    expect(screen.getByText(MESSAGES.noArticlesFoundHint)).toBeTruthy();
  });

  it('shows an imported article still fetching, and one that failed with its reason and Retry', () => {
    const retried: string[] = [];
    renderGrid({
      articles: [
        { ...article(1), fetch_state: 'pending' },
        { ...article(2), fetch_state: 'failed', fetch_error: 'The page answered with HTTP status 404' },
        article(3),
      ],
      onRetryFetch: (item) => retried.push(item.id),
    });
    const cards = [...document.querySelectorAll('article')];
    expect(cards[0]!.textContent).toContain('Fetching page…');
    expect(cards[1]!.textContent).toContain(
      'Couldn’t fetch the page. The page answered with HTTP status 404',
    );
    expect(cards[2]!.textContent).not.toMatch(/Fetching page|Couldn’t fetch/);
    const failed = screen.getByRole('group', { name: 'Page not fetched' });
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    expect(retried).toEqual(['article-2']);
    // A failed fetch is still an article: favorite, archive and delete stay.
    expect(screen.getByRole('button', { name: 'Delete “Article 2”' })).toBeTruthy();
  });

  it('renders a long list a page at a time', () => {
    const articles = Array.from({ length: 60 }, (_, i) => article(i + 1));
    renderGrid({ articles });
    expect(document.querySelectorAll('article')).toHaveLength(24);
    expect(screen.getByRole('list', { name: '60 articles' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show more (36 left)' }));
    expect(document.querySelectorAll('article')).toHaveLength(48);
    fireEvent.click(screen.getByRole('button', { name: 'Show more (12 left)' }));
    expect(document.querySelectorAll('article')).toHaveLength(60);
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
  });

  it('starts again from the first page when the view changes', () => {
    const articles = Array.from({ length: 30 }, (_, i) => article(i + 1));
    const { rerender } = renderGrid({ articles, viewKey: 'all' });
    fireEvent.click(screen.getByRole('button', { name: 'Show more (6 left)' }));
    expect(document.querySelectorAll('article')).toHaveLength(30);
    rerender(grid({ articles, viewKey: 'unread' }));
    expect(document.querySelectorAll('article')).toHaveLength(24);
  });

  it('shows a card coming in with the nodes of one that left, and takes the focus off them', () => {
    const { rerender } = renderGrid({ articles: [article(1), article(2), article(3)] });
    const itemOf = (title: string) => screen.getByRole('link', { name: title }).closest('li');
    const second = itemOf('Article 2');
    screen.getByRole('link', { name: 'Article 2' }).focus();
    expect(document.activeElement?.textContent).toBe('Article 2');
    rerender(grid({ articles: [article(1), article(3), article(4)] }));
    // The cards that stayed kept their nodes; the one that came is in the nodes of the one that left.
    expect(itemOf('Article 4')).toBe(second);
    expect(itemOf('Article 1')?.getAttribute('aria-posinset')).toBe('1');
    expect(itemOf('Article 3')?.getAttribute('aria-posinset')).toBe('2');
    expect(itemOf('Article 4')?.getAttribute('aria-posinset')).toBe('3');
    expect([...document.querySelectorAll('article h3')].map((title) => title.textContent)).toEqual([
      'Article 1',
      'Article 3',
      'Article 4',
    ]);
    // The focus was Article 2's: it doesn't move to the card now in its nodes.
    expect(document.activeElement).toBe(document.body);
    expect(screen.getByRole('button', { name: 'Delete “Article 4”' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete “Article 2”' })).toBeNull();
  });
});
