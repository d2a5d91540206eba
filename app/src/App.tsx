// Every route of spec section 2. The dashboard and the sign-in screen ship with the first page; every
// other screen (the bookmarklet's window and the sign-in callback too) loads when first opened.
import { lazy } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { LoginRoute } from './screens/auth/LoginRoute';
import { DashboardPage } from './screens/dashboard/DashboardPage';
import { AppLayout } from './session/AppLayout';
import { RequireAuth } from './session/RequireAuth';
import { LazyScreen } from './session/ScreenLoadBoundary';
import { SessionPublicLayout } from './session/SessionPublicLayout';

/** A screen in its own chunk, fetched the first time its route opens (the service worker precaches all). */
function lazyScreen<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const AboutPage = lazyScreen(() => import('./screens/public/AboutPage'), 'AboutPage');
const FaqPage = lazyScreen(() => import('./screens/public/FaqPage'), 'FaqPage');
const ContactPage = lazyScreen(() => import('./screens/public/ContactPage'), 'ContactPage');
const BlogPage = lazyScreen(() => import('./screens/public/BlogPage'), 'BlogPage');
const HelpPage = lazyScreen(() => import('./screens/public/HelpPage'), 'HelpPage');
const ArticlePage = lazyScreen(() => import('./screens/reader/ArticlePage'), 'ArticlePage');
const ListsPage = lazyScreen(() => import('./screens/lists/ListsPage'), 'ListsPage');
const HighlightsPage = lazyScreen(() => import('./screens/highlights/HighlightsPage'), 'HighlightsPage');
const ProfilePage = lazyScreen(() => import('./screens/profile/ProfilePage'), 'ProfilePage');
const ImportPage = lazyScreen(() => import('./screens/import/ImportPage'), 'ImportPage');
const ShareTargetPage = lazyScreen(() => import('./screens/auth/ShareTargetPage'), 'ShareTargetPage');
const AuthCallbackPage = lazyScreen(() => import('./screens/auth/AuthCallbackPage'), 'AuthCallbackPage');
const SavePage = lazyScreen(() => import('./screens/bookmarklet/SavePage'), 'SavePage');
const PublicListPage = lazyScreen(() => import('./screens/shared-list/PublicListPage'), 'PublicListPage');

const PUBLIC_PAGES = [
  { path: '/about', Page: AboutPage },
  { path: '/faq', Page: FaqPage },
  { path: '/contact', Page: ContactPage },
  { path: '/blog', Page: BlogPage },
  { path: '/help', Page: HelpPage },
  { path: '/list/:shareId', Page: PublicListPage },
];

const SIGNED_IN_SCREENS = [
  { path: '/article/:id', Screen: ArticlePage },
  { path: '/lists', Screen: ListsPage },
  { path: '/highlights', Screen: HighlightsPage },
  { path: '/profile', Screen: ProfilePage },
  { path: '/import', Screen: ImportPage },
  { path: '/share', Screen: ShareTargetPage },
];

function SignedIn({ children }: { children: ReactNode }) {
  return (
    <RequireAuth>
      <AppLayout>
        <LazyScreen>{children}</LazyScreen>
      </AppLayout>
    </RequireAuth>
  );
}

/** Filters reset on each navigation to / (spec section 4): every visit is a fresh dashboard. */
function Dashboard() {
  const { key } = useLocation();
  return <DashboardPage key={key} />;
}

export function App() {
  return (
    <Routes>
      <Route path="/login" element={<LoginRoute />} />
      <Route
        path="/auth/callback"
        element={
          <LazyScreen>
            <AuthCallbackPage />
          </LazyScreen>
        }
      />
      {/* The bookmarklet's small window: public, so that a signed-out reader is told so there. */}
      <Route
        path="/save"
        element={
          <LazyScreen>
            <SavePage />
          </LazyScreen>
        }
      />
      {PUBLIC_PAGES.map(({ path, Page }) => (
        <Route
          key={path}
          path={path}
          element={
            <SessionPublicLayout>
              <LazyScreen>
                <Page />
              </LazyScreen>
            </SessionPublicLayout>
          }
        />
      ))}
      <Route
        path="/"
        element={
          <SignedIn>
            <Dashboard />
          </SignedIn>
        }
      />
      {SIGNED_IN_SCREENS.map(({ path, Screen }) => (
        <Route
          key={path}
          path={path}
          element={
            <SignedIn>
              <Screen />
            </SignedIn>
          }
        />
      ))}
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
