// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// Sign-in paths that could cost a device its data or hand it to someone else, against a real server:
// signing in as another account over unsynced changes, /auth/callback's codes and errors, and signing out
// everywhere.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GOOGLE_SIGN_IN_ERRORS, SERVER_ERRORS, TOKEN_STORAGE_KEY } from '@lectern/shared-schema';
// Before the data layer loads: Dexie takes the IndexedDB globals (fake-indexeddb's here) when it loads.
import { createTestDevice, type TestDevice } from '../data/testing/test-lectern';
import { createObjectUrl, GOOGLE_NONCE_KEY } from '../data';
import { AuthCallbackPage } from '../screens/auth/AuthCallbackPage';
import { authErrorMessage } from './auth-error';
import { LecternProvider } from './LecternProvider';
import { RequireAuth } from './RequireAuth';
import { SessionProvider } from './SessionProvider';
import { registerUser, startWorld, type World } from '../data/testing/server-fixture';
import { worldPerFile } from '../data/testing/per-test';
import { useSession } from './use-session';

const PASSWORD = 'correct horse battery';
/** A sign-in runs the server's real scrypt hash, which takes seconds on a busy machine. */
const SIGN_IN_WAIT = { timeout: 10_000 };

let world: World;
let device: TestDevice;

worldPerFile(startWorld, (started) => (world = started));

beforeEach(() => {
  localStorage.clear();
  device = createTestDevice({ baseUrl: world.server.url, tokenStorage: localStorage });
});

afterEach(async () => {
  cleanup();
  await device.lectern.close();
});

/** /login: the error handed over by /auth/callback, and a sign-in form reduced to one button. */
function LoginScreen({ email }: { email?: string }) {
  const location = useLocation();
  const { login } = useSession();
  const state = location.state as { authError?: string } | null;
  return (
    <>
      <p>Login page</p>
      {state?.authError && <p role="alert">{state.authError}</p>}
      {email && (
        <button
          type="button"
          onClick={() => {
            login({ email, password: PASSWORD }).catch((error: unknown) => {
              document.body.dataset.loginFailure = authErrorMessage(error);
            });
          }}
        >
          Sign in
        </button>
      )}
    </>
  );
}

function Home() {
  const { user, logoutEverywhere } = useSession();
  return (
    <>
      <p>Signed in as {user?.email}</p>
      <button type="button" onClick={() => void logoutEverywhere()}>
        Sign out everywhere
      </button>
    </>
  );
}

function renderApp(path: string, email?: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <LecternProvider lectern={device.lectern}>
        <SessionProvider>
          <Routes>
            <Route path="/login" element={<LoginScreen email={email} />} />
            <Route path="/auth/callback" element={<AuthCallbackPage />} />
            <Route
              path="/"
              element={
                <RequireAuth>
                  <Home />
                </RequireAuth>
              }
            />
          </Routes>
        </SessionProvider>
      </LecternProvider>
    </MemoryRouter>,
  );
}

/** This device holds `first`'s offline change, and `first`'s session ended (a 401 keeps the outbox). */
async function deviceWithUnsyncedChangesOf(first: { token: string; email: string }) {
  localStorage.setItem(TOKEN_STORAGE_KEY, first.token);
  await device.lectern.auth.me();
  device.setOnline(false);
  await device.lectern.articles.create({ url: 'https://example.com/written-offline' });
  device.setOnline(true);
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  expect(await device.lectern.db.outbox.count()).toBe(1);
}

describe('signing in as another account over unsynced changes', () => {
  it('asks first; keeping the changes leaves the device as it was and revokes the new token', async () => {
    const first = await registerUser(world);
    const second = await registerUser(world);
    await deviceWithUnsyncedChangesOf(first);
    renderApp('/login', second.email);

    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Sign in and lose unsynced changes?' },
      SIGN_IN_WAIT,
    );
    expect(dialog.textContent).toContain(
      `1 change made on this device by ${first.email} haven't reached the server yet.`,
    );
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    await waitFor(() =>
      expect(document.body.dataset.loginFailure).toBe(
        'Sign-in cancelled. The unsynced changes are still on this device.',
      ),
    );
    expect(screen.getByText('Login page')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(await device.lectern.db.outbox.count()).toBe(1);
    // The unused token of the second account is revoked.
    await waitFor(() =>
      expect(
        device.network.state.requests.filter((request) => request.url.endsWith('/api/auth/logout')),
      ).toHaveLength(1),
    );
    expect((await device.lectern.db.getMeta('user'))?.email).toBe(first.email);
    // The first account signs in again and keeps its changes.
    localStorage.setItem(TOKEN_STORAGE_KEY, first.token);
    await device.lectern.auth.me();
    expect(await device.lectern.db.outbox.count()).toBe(1);
  });

  it('wipes them only when told to sign in anyway', async () => {
    const first = await registerUser(world);
    const second = await registerUser(world);
    await deviceWithUnsyncedChangesOf(first);
    renderApp('/login', second.email);

    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in anyway' }, SIGN_IN_WAIT));
    await waitFor(() => expect(localStorage.getItem(TOKEN_STORAGE_KEY)).not.toBeNull());
    expect(await device.lectern.db.outbox.count()).toBe(0);
    expect((await device.lectern.db.getMeta('user'))?.email).toBe(second.email);
  });
});

describe('/auth/callback', () => {
  it.each([
    [
      'an error text of anyone’s choosing',
      'Your account is locked. Call +1 555 0100',
      SERVER_ERRORS.googleFailed,
    ],
    ['markup', '<img src=x onerror=alert(1)>', SERVER_ERRORS.googleFailed],
    ['google_email_taken', 'google_email_taken', GOOGLE_SIGN_IN_ERRORS.google_email_taken],
    ['google_email_unverified', 'google_email_unverified', GOOGLE_SIGN_IN_ERRORS.google_email_unverified],
    ['google_not_configured', 'google_not_configured', GOOGLE_SIGN_IN_ERRORS.google_not_configured],
  ])('shows a fixed message for %s', async (_case, code, message) => {
    renderApp(`/auth/callback?error=${encodeURIComponent(code)}`);
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(document.body.textContent).not.toContain('555 0100');
  });

  it('refuses a code this tab did not start a sign-in for, without asking the server', async () => {
    renderApp('/auth/callback?code=someone-elses-code');
    expect((await screen.findByRole('alert')).textContent).toBe(GOOGLE_SIGN_IN_ERRORS.google_not_started);
    expect(device.network.state.requests.filter((request) => request.url.includes('/exchange'))).toEqual([]);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('uses the tab’s nonce once, and a code the server refuses ends at /login with a fixed message', async () => {
    const address = device.lectern.auth.startGoogleSignIn();
    const nonce = new URL(address).searchParams.get('nonce') ?? '';
    expect(address).toBe(`${world.server.url}/api/auth/google?nonce=${nonce}`);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(device.lectern.auth.startGoogleSignIn()).not.toContain(nonce);

    renderApp('/auth/callback?code=made-up-code');
    expect((await screen.findByRole('alert')).textContent).toBe(GOOGLE_SIGN_IN_ERRORS.google_expired);
    expect(device.network.state.requests.filter((request) => request.url.includes('/exchange'))).toHaveLength(
      1,
    );
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('keeps the nonce in this tab’s own storage, not where other tabs read it', () => {
    device.lectern.auth.startGoogleSignIn();
    expect(localStorage.getItem(GOOGLE_NONCE_KEY)).toBeNull();
  });
});

describe('sign out everywhere', () => {
  it('ends every session of the user and clears this device', async () => {
    const { token, email } = await registerUser(world);
    const other = await fetch(`${world.server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const otherToken = ((await other.json()) as { token: string }).token;
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    renderApp('/');
    await screen.findByText(`Signed in as ${email}`);

    // A screenshot still shown on this device, behind an object URL.
    const screenshotUrl = createObjectUrl(new Blob(['private screenshot'], { type: 'image/png' }));
    const revoke = vi.spyOn(URL, 'revokeObjectURL');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' })));
    expect(await screen.findByText('Login page')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    // The device's images go as at logout.
    expect(revoke).toHaveBeenCalledWith(screenshotUrl);
    revoke.mockRestore();
    const me = await fetch(`${world.server.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(me.status).toBe(401);
  });

  it('asks first when changes have not reached the server', async () => {
    const { token, email } = await registerUser(world);
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    renderApp('/');
    await screen.findByText(`Signed in as ${email}`);
    device.setOnline(false);
    await act(() => device.lectern.articles.create({ url: 'https://example.com/later' }));
    device.setOnline(true);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await screen.findByRole('dialog', { name: 'Log out and lose unsynced changes?' });
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText(`Signed in as ${email}`)).toBeTruthy();
    expect(await device.lectern.db.outbox.count()).toBe(1);
  });
});
