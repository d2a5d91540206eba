// @vitest-environment happy-dom
// The dashboard's grid over the device's list read a window at a time: the first page, the total the
// list says and Show more, the filter and order asked, and a write shown live.
import '../../data/testing/install-fake-indexeddb';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tagNameKey, type ArticlesQuery } from '@lectern/shared-schema';
import type { ArticleOrder } from '../../data';
import { articleSummary } from '../../data/testing/article-summary';
import { createTestDevice, type TestDevice } from '../../data/testing/test-lectern';
import { LecternProvider } from '../../session/LecternProvider';
import { PagedArticleGrid } from './ArticleGrid';
import { START_LIST } from './start-list';

let device: TestDevice;
const noop = () => {};

beforeEach(async () => {
  device = createTestDevice();
  device.setOnline(false);
  // 70 articles, one a day: article-1 the oldest; the even ones read, every tenth tagged.
  await device.lectern.db.articles.bulkPut(
    Array.from({ length: 70 }, (_, i) => {
      const n = i + 1;
      const tags = n % 10 === 0 ? ['Tenth'] : [];
      return {
        ...articleSummary(`article-${n}`, {
          title: `Article ${n}`,
          created_at: new Date(Date.UTC(2026, 0, n)).toISOString(),
          is_read: n % 2 === 0,
          tags,
        }),
        tag_keys: tags.map(tagNameKey),
        rev: n,
      };
    }),
  );
});

afterEach(async () => {
  cleanup();
  await device.lectern.close();
});

function grid(
  query: ArticlesQuery,
  order: ArticleOrder = 'newest',
  countedTotal?: number,
  onTotal?: (total: number) => void,
) {
  return (
    <LecternProvider lectern={device.lectern}>
      <MemoryRouter>
        <PagedArticleGrid
          query={query}
          order={order}
          libraryEmpty={false}
          countedTotal={countedTotal}
          onTotal={onTotal}
          selectMode={false}
          selectedIds={new Set()}
          onToggleFavorite={noop}
          onToggleArchive={noop}
          onDelete={noop}
          onRetrySave={noop}
          onRetryFetch={noop}
          onSelect={noop}
        />
      </MemoryRouter>
    </LecternProvider>
  );
}

const titles = () =>
  [...document.querySelectorAll('article .article-card__title')].map((el) => el.textContent);

describe('PagedArticleGrid', () => {
  it('starts from the first chunk the app’s start read ahead: cards in its first render, then live', async () => {
    const { query, order, start, end } = START_LIST;
    await device.lectern.articles.readAhead(query, order, start, end);
    render(grid(query, order));
    // No wait: the first render (and the layout effect before its paint) already has them.
    expect(document.querySelectorAll('article')).toHaveLength(24);
    expect(titles()[0]).toBe('Article 70');

    // The live read follows the list from then on.
    await act(async () => {
      await device.lectern.db.articles.update('article-70', { title: 'Article 70, renamed' });
    });
    await waitFor(() => expect(titles()[0]).toBe('Article 70, renamed'));

    // Taken once: the next dashboard reads its list itself.
    cleanup();
    render(grid(query, order));
    expect(document.querySelectorAll('article')).toHaveLength(0);
    await screen.findByRole('list', { name: '70 articles' });
  });

  it('shows the list’s first page, its total, and more on Show more', async () => {
    render(grid({ archived: false }));
    await screen.findByRole('list', { name: '70 articles' });
    expect(document.querySelectorAll('article')).toHaveLength(24);
    expect(titles()[0]).toBe('Article 70');
    expect(document.querySelector('li[aria-posinset="1"]')?.getAttribute('aria-setsize')).toBe('70');
    fireEvent.click(screen.getByRole('button', { name: 'Show more (46 left)' }));
    await waitFor(() => expect(document.querySelectorAll('article')).toHaveLength(48));
    fireEvent.click(screen.getByRole('button', { name: 'Show more (22 left)' }));
    await waitFor(() => expect(document.querySelectorAll('article')).toHaveLength(70));
    expect(titles().at(-1)).toBe('Article 1');
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
  });

  it('lists the filter and order asked, and starts again from the first page when they change', async () => {
    const { rerender } = render(grid({ archived: false, is_read: false }, 'oldest'));
    await screen.findByRole('list', { name: '35 articles' });
    expect(titles().slice(0, 3)).toEqual(['Article 1', 'Article 3', 'Article 5']);
    rerender(grid({ archived: false, tag_name: 'tenth' }, 'title'));
    await screen.findByRole('list', { name: '7 articles' });
    expect(titles()).toEqual([
      'Article 10',
      'Article 20',
      'Article 30',
      'Article 40',
      'Article 50',
      'Article 60',
      'Article 70',
    ]);
    rerender(grid({ archived: true }));
    expect(await screen.findByText('No articles found')).toBeTruthy();
  });

  it('shows as loading while its list answers none and the library’s counts say it holds some', async () => {
    // The counts ahead of the list (a first sync's page of cards just stored): not "No articles found".
    const totals: number[] = [];
    const { rerender } = render(grid({ archived: true }, 'newest', 12, (total) => totals.push(total)));
    // The list's own read has answered none.
    await waitFor(() => expect(totals).toEqual([0]));
    expect(screen.getByRole('status', { name: 'Loading articles' })).toBeTruthy();
    expect(screen.queryByText('No articles found')).toBeNull();
    // The counts agree: the list is empty.
    rerender(grid({ archived: true }, 'newest', 0));
    expect(await screen.findByText('No articles found')).toBeTruthy();
  });

  it('shows a write at once', async () => {
    render(grid({ archived: false, is_read: false }));
    await screen.findByRole('list', { name: '35 articles' });
    await act(() => device.lectern.articles.update('article-69', { isRead: true }));
    await screen.findByRole('list', { name: '34 articles' });
    expect(titles()[0]).toBe('Article 67');
  });
});
