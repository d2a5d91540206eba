// @vitest-environment happy-dom
// Searching from the dashboard's list: the list stays on screen until the results come, with no skeleton
// cards flashing in between (they would repaint every frame while the query reads); a search slower than
// a moment shows them, and its results replace them.
import '../../data/testing/install-fake-indexeddb';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DASHBOARD_SKELETON_COUNT, SEARCH_DEBOUNCE_MS } from '@lectern/shared-schema';
import { ToastProvider } from '../../components/ToastProvider';
import { articleSummary } from '../../data/testing/article-summary';
import { createTestDevice, type TestDevice } from '../../data/testing/test-lectern';
import { LecternProvider } from '../../session/LecternProvider';
import { DashboardPage } from './DashboardPage';

let device: TestDevice;

beforeEach(async () => {
  device = createTestDevice();
  device.setOnline(false);
  const titles = ['Rings of Saturn', 'Sourdough at home', 'Tomatoes in pots', 'Gravel bikes'];
  await device.lectern.db.articles.bulkPut(
    titles.map((title, i) => ({
      ...articleSummary(`article-${i + 1}`, {
        title,
        created_at: new Date(Date.UTC(2026, 0, i + 1)).toISOString(),
      }),
      tag_keys: [],
      rev: i + 1,
    })),
  );
});

afterEach(async () => {
  cleanup();
  await device.lectern.close();
});

function openDashboard() {
  render(
    <LecternProvider lectern={device.lectern}>
      <ToastProvider>
        <MemoryRouter>
          <DashboardPage />
        </MemoryRouter>
      </ToastProvider>
    </LecternProvider>,
  );
}

const cardTitles = () =>
  [...document.querySelectorAll('article .article-card__title')].map((el) => el.textContent);

/** Whether a skeleton card is ever put on the page from now on. */
function watchSkeletons(): () => boolean {
  let seen = false;
  const observer = new MutationObserver(() => {
    seen ||= document.querySelector('.skeleton-card') !== null;
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    return seen;
  };
}

/**
 * Keeps the articles' store busy with a write transaction for `ms`: reads of it wait behind, as behind a
 * long write on a slow device.
 */
function holdArticles(ms: number): Promise<void> {
  const transaction = device.lectern.db.backendDB().transaction(['articles'], 'readwrite');
  const store = transaction.objectStore('articles');
  const until = Date.now() + ms;
  const spin = () => {
    if (Date.now() < until) store.get('no-such-article').onsuccess = spin;
  };
  spin();
  return new Promise((resolve) => {
    transaction.oncomplete = () => resolve();
  });
}

describe('Searching from the dashboard', () => {
  it('keeps the list on screen until the results come, with no skeleton cards in between', async () => {
    openDashboard();
    await screen.findByRole('list', { name: '4 articles' });
    const skeletonsSeen = watchSkeletons();

    fireEvent.change(screen.getByLabelText('Search articles'), { target: { value: 'saturn' } });
    await screen.findByText('1 result for “saturn”', undefined, { timeout: 3_000 });
    expect(cardTitles()).toEqual(['Rings of Saturn']);
    expect(skeletonsSeen()).toBe(false);
  });

  it('shows the skeleton cards while a slower search runs, then its results', async () => {
    openDashboard();
    await screen.findByRole('list', { name: '4 articles' });

    const typedAt = Date.now();
    fireEvent.change(screen.getByLabelText('Search articles'), { target: { value: 'sourdough' } });
    const held = holdArticles(1_500);
    // The list through the typing pause and the search's first 300 ms, then the skeleton cards.
    await screen.findByRole('status', { name: 'Loading articles' }, { timeout: 1_400 });
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(SEARCH_DEBOUNCE_MS + 250);
    expect(document.querySelectorAll('.skeleton-card')).toHaveLength(DASHBOARD_SKELETON_COUNT);
    await held;
    await screen.findByText('1 result for “sourdough”', undefined, { timeout: 3_000 });
    await waitFor(() => expect(cardTitles()).toEqual(['Sourdough at home']));
    expect(document.querySelector('.skeleton-card')).toBeNull();
  });
});
