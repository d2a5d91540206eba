// @vitest-environment happy-dom
// The hooks re-render with every change of the data, whoever makes it.
import './testing/install-fake-indexeddb';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LecternContext, useArticles, useSyncState } from './hooks';
import { createTestDevice, type TestDevice } from './testing/test-lectern';

let device: TestDevice;

beforeEach(() => {
  device = createTestDevice();
  device.storage.setItem('token', 'a-token');
  device.setOnline(false);
});

afterEach(async () => {
  await device.lectern.close();
});

function Dashboard() {
  const list = useArticles({ archived: false });
  const sync = useSyncState();
  if (!list) return <p>Loading...</p>;
  return (
    <div>
      <p>{`${list.stats.total} saved, ${sync.pendingCount} pending, ${sync.online ? 'online' : 'offline'}`}</p>
      <ul>
        {list.articles.map((article) => (
          <li key={article.id}>{article.title}</li>
        ))}
      </ul>
    </div>
  );
}

describe('hooks', () => {
  it('show writes live, with the sync state', async () => {
    render(
      <LecternContext.Provider value={device.lectern}>
        <Dashboard />
      </LecternContext.Provider>,
    );
    await screen.findByText('0 saved, 0 pending, offline');
    await act(() => device.lectern.articles.create({ url: 'https://example.com/a' }));
    await screen.findByText('https://example.com/a');
    await waitFor(() => expect(screen.getByText('1 saved, 1 pending, offline')).toBeTruthy());
    const id = (await device.lectern.articles.list()).articles[0]!.id;
    await act(() => device.lectern.articles.update(id, { isArchived: true }));
    await waitFor(() => expect(screen.queryByText('https://example.com/a')).toBeNull());
    await screen.findByText('1 saved, 2 pending, offline');
  });
});
