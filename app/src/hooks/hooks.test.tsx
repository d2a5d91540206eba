// @vitest-environment happy-dom
// The hooks the screens read the device through re-render with every change of the data, whoever makes
// it, under the same provider as the app.
import '../data/testing/install-fake-indexeddb';
import type { ReactNode } from 'react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_ERRORS, TOKEN_STORAGE_KEY } from '@lectern/shared-schema';
import { createTestDevice, type TestDevice } from '../data/testing/test-lectern';
import { LecternProvider } from '../session/LecternProvider';
import { useLectern } from '../session/use-lectern';
import { useArticleFeed } from './use-library';
import { useLiveResult } from './use-live-result';
import { useOnline, useSyncState } from './use-sync-state';

let device: TestDevice;

beforeEach(() => {
  device = createTestDevice();
  device.storage.setItem(TOKEN_STORAGE_KEY, 'a-token');
  device.setOnline(false);
});

afterEach(async () => {
  cleanup();
  await device.lectern.close();
});

function Library({ search = '' }: { search?: string }) {
  const feed = useArticleFeed({ archived: false }, search);
  const sync = useSyncState();
  const online = useOnline();
  if (!feed) return <p>Loading...</p>;
  return (
    <div>
      <p>{`${feed.stats.total} saved, ${sync.pendingCount} pending, ${online ? 'online' : 'offline'}`}</p>
      <ul>
        {feed.articles.map((article) => (
          <li key={article.id}>{article.title}</li>
        ))}
      </ul>
    </div>
  );
}

function OneArticle({ id }: { id: string }) {
  const lectern = useLectern();
  const article = useLiveResult(() => lectern.articles.get(id), [lectern, id]);
  if (article.status === 'loading') return <p>Loading...</p>;
  if (article.status === 'error') return <p>{`Failed: ${(article.error as Error).message}`}</p>;
  return <p>{`Read: ${article.value.article.title}`}</p>;
}

function renderWithDevice(element: ReactNode) {
  return render(<LecternProvider lectern={device.lectern}>{element}</LecternProvider>);
}

describe('the hooks over the data layer', () => {
  it('show writes live, with the sync state', async () => {
    renderWithDevice(<Library />);
    await screen.findByText('0 saved, 0 pending, offline');
    await act(() => device.lectern.articles.create({ url: 'https://example.com/a' }));
    await screen.findByText('https://example.com/a');
    await waitFor(() => expect(screen.getByText('1 saved, 1 pending, offline')).toBeTruthy());
    const id = (await device.lectern.articles.list()).articles[0]!.id;
    await act(() => device.lectern.articles.update(id, { isArchived: true }));
    await waitFor(() => expect(screen.queryByText('https://example.com/a')).toBeNull());
    await screen.findByText('1 saved, 2 pending, offline');
  });

  it('answer a search in place of the list while it is not empty', async () => {
    await device.lectern.articles.create({ url: 'https://example.com/gardening' });
    await device.lectern.articles.create({ url: 'https://example.com/astronomy' });
    renderWithDevice(<Library search="astronomy" />);
    await screen.findByText('https://example.com/astronomy');
    expect(screen.queryByText('https://example.com/gardening')).toBeNull();
    expect(screen.getByText('2 saved, 2 pending, offline')).toBeTruthy();
  });

  it('give a failed read as a value, live: an article deleted while it is shown reads as not found', async () => {
    const { article } = await device.lectern.articles.create({ url: 'https://example.com/b' });
    renderWithDevice(<OneArticle id={article.id} />);
    await screen.findByText('Read: https://example.com/b');
    await act(() => device.lectern.articles.remove(article.id));
    expect((await screen.findByText(/^Failed: /)).textContent).toBe(
      `Failed: ${SERVER_ERRORS.articleNotFound}`,
    );
  });
});
