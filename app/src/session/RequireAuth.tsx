import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { LoadingScreen } from './LoadingScreen';
import { useSession } from './use-session';

/** Protected routes: 'Loading...' while the session loads, then the screen or /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { loading, isAuthenticated } = useSession();
  if (loading) return <LoadingScreen />;
  if (!isAuthenticated) return <Navigate to="/login" replace />;
  return children;
}
