// A screen that cannot be shown says so instead of leaving the page blank. Every screen but the dashboard
// and sign-in is fetched the first time it opens (App.tsx); on a device whose service worker has not yet
// taken the app in (a first visit, before the next load) that fetch fails offline, and an error thrown while
// rendering would otherwise unmount the whole app. The browser remembers a failed module fetch for the
// page's life, so trying again loads the page anew (the service worker then serves it, offline too).
import { Component, Suspense, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '../components/Button';
import { LoadingScreen } from './LoadingScreen';

export const SCREEN_LOAD_FAILED = 'This screen couldn’t be opened. Check your connection and try again.';

interface Props {
  children: ReactNode;
  /** What Try again does: loads the page again. */
  onRetry?: () => void;
}

export class ScreenLoadBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const retry = this.props.onRetry ?? (() => window.location.reload());
    return (
      <div className="loading-screen screen-load-failed" role="alert">
        <p>{SCREEN_LOAD_FAILED}</p>
        <div className="screen-load-failed__actions">
          <Button onClick={retry}>Try again</Button>
          <Link to="/">Back to My Articles</Link>
        </div>
      </div>
    );
  }
}

/**
 * A screen that may still have to be fetched: the loading screen meanwhile, and words instead of a blank page
 * when it can't be. Each route has a boundary of its own, keyed by path: routes whose elements are alike
 * (every signed-in screen is a LazyScreen in the same layout) would otherwise share one, and a failed screen
 * would stay on screen after leaving it.
 */
export function LazyScreen({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ScreenLoadBoundary key={pathname}>
      <Suspense fallback={<LoadingScreen />}>{children}</Suspense>
    </ScreenLoadBoundary>
  );
}
