// TEMPORARY routes for the public screens; session, data and the protected screens arrive with the data layer.
import { Navigate, Route, Routes } from 'react-router-dom';
import { ToastProvider } from './components/ToastProvider';
import { PublicLayout } from './components/PublicLayout';
import { AboutPage } from './screens/public/AboutPage';
import { BlogPage } from './screens/public/BlogPage';
import { ContactPage } from './screens/public/ContactPage';
import { FaqPage } from './screens/public/FaqPage';
import { HelpPage } from './screens/public/HelpPage';
import { LoginPage } from './screens/public/LoginPage';

const PUBLIC_PAGES = [
  { path: '/about', page: <AboutPage /> },
  { path: '/faq', page: <FaqPage /> },
  { path: '/contact', page: <ContactPage /> },
  { path: '/blog', page: <BlogPage /> },
  { path: '/help', page: <HelpPage /> },
];

export function App() {
  return (
    <ToastProvider>
      <Routes>
        <Route
          path="/login"
          element={
            <LoginPage
              googleHref="/api/auth/google"
              onSubmit={() => Promise.reject(new Error('Signing in arrives with the data layer.'))}
            />
          }
        />
        {PUBLIC_PAGES.map(({ path, page }) => (
          <Route key={path} path={path} element={<PublicLayout>{page}</PublicLayout>} />
        ))}
        <Route path="*" element={<Navigate to="/login" replace />} />
      </Routes>
    </ToastProvider>
  );
}
