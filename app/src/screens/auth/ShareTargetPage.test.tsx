// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// /share can be opened by any web page, not only the phone's share sheet: the shared link is shown and
// saved only after the reader taps Save; Cancel saves nothing. Against a real server.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY } from '@lectern/shared-schema';
import { ToastProvider } from '../../components/ToastProvider';
import { createTestDevice, type TestDevice } from '../../data/testing/test-lectern';
import { LecternContext } from '../../session/use-lectern';
import { registerUser, startWorld, type World } from '../../data/testing/server-fixture';
import { worldPerFile } from '../../data/testing/per-test';
import { ShareTargetPage } from './ShareTargetPage';

let world: World;
let device: TestDevice;
let token: string;

worldPerFile(startWorld, (started) => (world = started));

beforeEach(async () => {
  ({ token } = await registerUser(world));
  device = createTestDevice({ baseUrl: world.server.url });
  device.storage.setItem(TOKEN_STORAGE_KEY, token);
});

afterEach(async () => {
  cleanup();
  await device.lectern.close();
});

async function serverArticles(): Promise<{ url: string }[]> {
  const response = await fetch(`${world.server.url}/api/articles`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { articles: { url: string }[] }).articles;
}

function openShare(query: string) {
  render(
    <LecternContext.Provider value={device.lectern}>
      <ToastProvider>
        <MemoryRouter initialEntries={[`/share?${query}`]}>
          <Routes>
            <Route path="/share" element={<ShareTargetPage />} />
            <Route path="/" element={<h1>My Articles</h1>} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </LecternContext.Provider>,
  );
}

const posts = () => device.network.state.requests.filter((r) => r.method === 'POST');

describe('ShareTargetPage', () => {
  it('shows the shared link and saves nothing until Save is pressed', async () => {
    // The server's page fetcher can't start under happy-dom, so this device is offline: a save lands in
    // its outbox (the e2e test saves it online). Nothing may land anywhere before Save.
    device.setOnline(false);
    const url = world.site.url('/baking');
    openShare(`url=${encodeURIComponent(url)}`);
    expect(await screen.findByText('Save this link to your library?')).toBeTruthy();
    expect(screen.getByText(url)).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await device.lectern.db.articles.count()).toBe(0);
    expect(await device.lectern.db.outbox.count()).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Saved on this device. It will be fetched as soon as you are back online.'),
    ).toBeTruthy();
    const saved = await device.lectern.db.outbox.toArray();
    expect(saved.map((row) => row.op)).toMatchObject([{ kind: 'createArticle', body: { url } }]);
    expect(await device.lectern.db.articles.count()).toBe(1);
  });

  it('Cancel goes to My Articles and saves nothing', async () => {
    const text = `Look at this: ${world.site.url('/gardening')}.`;
    openShare(`title=Garden&text=${encodeURIComponent(text)}`);
    expect(await screen.findByText(world.site.url('/gardening'))).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'My Articles' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Save this link to your library?')).toBeNull());
    expect(posts()).toEqual([]);
    expect(await serverArticles()).toEqual([]);
  });
});
