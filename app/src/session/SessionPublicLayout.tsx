import type { ReactNode } from 'react';
import { PublicLayout } from '../components/PublicLayout';
import { useSession } from './use-session';

/** A public page that still shows who is signed in, with Logout, or Sign In. */
export function SessionPublicLayout({ children }: { children: ReactNode }) {
  const { user, logout } = useSession();
  return (
    <PublicLayout user={user} onLogout={() => void logout()}>
      {children}
    </PublicLayout>
  );
}
