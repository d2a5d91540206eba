// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// The session rules of spec section 4 against a real server, on a device with its own IndexedDB.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY, type AuthResponse, type TagsResponse } from '@lectern/shared-schema';
import type { FetchLike } from '../data';
import { createTestDevice, type TestDevice } from '../data/testing/test-lectern';
import { LecternProvider } from './LecternProvider';
import { RequireAuth } from './RequireAuth';
import { SessionProvider } from './SessionProvider';
import {
  newCredentials,
  registerUser,
  serverReader,
  startWorld,
  type World,
} from '../data/testing/server-fixture';
import { worldPerFile } from '../data/testing/per-test';
import { useSession } from './use-session';

let world: World;
let device: TestDevice;
let unauthorized = 0;
/** While set, the device's GET /api/auth/me waits for it before reaching the server. */
let meHeld: Promise<void> | null = null;
const holdingFetch: FetchLike = async (url, init) => {
  if (meHeld && url.endsWith('/api/auth/me')) await meHeld;
  return fetch(url, init);
};

worldPerFile(startWorld, (started) => (world = started));

beforeEach(() => {
  localStorage.clear();
  unauthorized = 0;
  meHeld = null;
  device = createTestDevice({
    baseUrl: world.server.url,
    fetch: holdingFetch,
    // The session removes a refused token from localStorage, where the browser keeps it.
    tokenStorage: localStorage,
    onUnauthorized: () => {
      unauthorized += 1;
    },
  });
});

afterEach(async () => {
  cleanup();
  await device.lectern.close();
});

function Account() {
  const { user, logout } = useSession();
  return (
    <>
      <p>Signed in as {user?.email}</p>
      <button type="button" onClick={() => void logout()}>
        Logout
      </button>
    </>
  );
}

function renderApp() {
  render(
    <MemoryRouter initialEntries={['/']}>
      <LecternProvider lectern={device.lectern}>
        <SessionProvider>
          <Routes>
            <Route path="/login" element={<p>Login page</p>} />
            <Route
              path="/"
              element={
                <RequireAuth>
                  <Account />
                </RequireAuth>
              }
            />
          </Routes>
        </SessionProvider>
      </LecternProvider>
    </MemoryRouter>,
  );
}

const registeredToken = () => registerUser(world);

describe('SessionProvider', () => {
  it('is signed out at once without a stored token, and protected routes go to /login', () => {
    renderApp();
    expect(screen.getByText('Login page')).toBeTruthy();
  });

  it("shows 'Loading...' while it checks a stored token, then the user", async () => {
    const { token, email } = await registeredToken();
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    renderApp();
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(await screen.findByText(`Signed in as ${email}`)).toBeTruthy();
  });

  it('removes a token the server refuses and is signed out', async () => {
    const { token } = await registeredToken();
    await fetch(`${world.server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    renderApp();
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(unauthorized).toBe(1);
  });

  it('opens at once as the user this device kept, and still ends a session the server refuses', async () => {
    const { token, email } = await registeredToken();
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    renderApp();
    // The first check keeps the user on the device.
    await screen.findByText(`Signed in as ${email}`);
    cleanup();

    await fetch(`${world.server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    let answer = () => {};
    meHeld = new Promise((resolve) => (answer = resolve));
    renderApp();
    // On screen before the server has answered the check.
    expect(await screen.findByText(`Signed in as ${email}`)).toBeTruthy();
    expect(unauthorized).toBe(0);
    answer();
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(unauthorized).toBe(1);
  });

  it('opens offline as the user this device last saw, and drops a token it cannot check otherwise', async () => {
    const { token, email } = await registeredToken();
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    device.setOnline(false);
    renderApp();
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    cleanup();

    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    device.setOnline(true);
    renderApp();
    await screen.findByText(`Signed in as ${email}`);
    cleanup();
    device.setOnline(false);
    renderApp();
    expect(await screen.findByText(`Signed in as ${email}`)).toBeTruthy();
  });

  it('logs out even when the server cannot be reached', async () => {
    const { token, email } = await registeredToken();
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    renderApp();
    await screen.findByText(`Signed in as ${email}`);
    device.setOnline(false);
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('sends a change made a moment before logging out, then logs out without asking', async () => {
    const { token, email } = await registeredToken();
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    renderApp();
    await screen.findByText(`Signed in as ${email}`);
    await act(() => device.lectern.tags.create({ name: 'saved a moment ago' }));
    expect(await device.lectern.db.outbox.count()).toBe(1);

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    // The tag reached the server: another session of the same reader lists it.
    const other = await fetch(`${world.server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: newCredentials().password }),
    });
    const { token: otherToken } = (await other.json()) as AuthResponse;
    const listed = await serverReader(world, otherToken)<TagsResponse>('/tags');
    expect(listed.tags.map((tag) => tag.name)).toEqual(['saved a moment ago']);
  });

  it('asks before logging out with changes the server has not got, and wipes them when confirmed', async () => {
    const { token, email } = await registeredToken();
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    renderApp();
    await screen.findByText(`Signed in as ${email}`);
    device.setOnline(false);
    await act(() => device.lectern.articles.create({ url: 'https://example.com/later' }));

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log out and lose unsynced changes?' });
    expect(dialog.textContent).toContain("1 change made on this device haven't reached the server yet");
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText(`Signed in as ${email}`)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Log out anyway' }));
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(await device.lectern.db.outbox.count()).toBe(0);
  });
});
