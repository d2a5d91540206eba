// @vitest-environment happy-dom
// A screen whose code can't be fetched (offline before the service worker has the app) says so, with a way
// to try again and a way back, instead of a blank page; a screen that loads is shown as it is.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { lazy, Suspense, type ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyScreen, SCREEN_LOAD_FAILED, ScreenLoadBoundary } from './ScreenLoadBoundary';

afterEach(cleanup);

/** A lazily fetched screen, as App.tsx makes them, whose fetch fails as a module import does offline. */
const Unreachable = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
const Reachable = lazy(() => Promise.resolve({ default: () => <h1>The reader</h1> }));

function renderAt(screenElement: ReactNode, onRetry?: () => void) {
  return render(
    <MemoryRouter initialEntries={['/article/a']}>
      <Routes>
        <Route path="/" element={<h1>My Articles</h1>} />
        <Route
          path="/article/:id"
          element={
            <ScreenLoadBoundary onRetry={onRetry}>
              <Suspense fallback={<p>Loading...</p>}>{screenElement}</Suspense>
            </ScreenLoadBoundary>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

describe('a screen that cannot be fetched', () => {
  it('says so with Try again and a way back, instead of a blank page', async () => {
    // React reports the error it caught; the test's output needn't show it.
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onRetry = vi.fn();
    renderAt(<Unreachable />, onRetry);
    expect((await screen.findByRole('alert')).textContent).toContain(SCREEN_LOAD_FAILED);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('link', { name: 'Back to My Articles' }));
    expect(await screen.findByRole('heading', { name: 'My Articles' })).toBeTruthy();
    reported.mockRestore();
  });

  it('shows the next screen once the reader leaves the failed one, in the same layout', async () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    // As App.tsx routes them: every screen a LazyScreen at the same place, so React keeps one boundary
    // across routes unless each route has its own.
    render(
      <MemoryRouter initialEntries={['/article/a']}>
        <Routes>
          <Route
            path="/"
            element={
              <LazyScreen>
                <h1>My Articles</h1>
              </LazyScreen>
            }
          />
          <Route
            path="/article/:id"
            element={
              <LazyScreen>
                <Unreachable />
              </LazyScreen>
            }
          />
        </Routes>
      </MemoryRouter>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(SCREEN_LOAD_FAILED);
    fireEvent.click(screen.getByRole('link', { name: 'Back to My Articles' }));
    expect(await screen.findByRole('heading', { name: 'My Articles' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    reported.mockRestore();
  });

  it('shows a screen that loads as it is', async () => {
    renderAt(<Reachable />);
    expect(await screen.findByRole('heading', { name: 'The reader' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
