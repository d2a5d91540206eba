import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { NavBar } from '../components/NavBar';
import { usePersistOnInstall } from '../hooks/use-persist-on-install';
import { useConnectivityToasts } from './use-connectivity-toasts';
import { useLectern } from './use-lectern';
import { useSession } from './use-session';

/** The frame of the signed-in screens: skip link, the app's navigation bar, the screen. */
export function AppLayout({ children }: { children: ReactNode }) {
  const { user, logout } = useSession();
  const lectern = useLectern();
  const { pathname } = useLocation();
  useConnectivityToasts();
  usePersistOnInstall();
  return (
    <div className="app-frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar
        variant="app"
        user={user}
        onLogout={() => void logout()}
        // The link itself re-enters / (the dashboard starts over); this also fetches what the server has.
        onBrandClick={() => {
          if (pathname === '/') lectern.sync.requestSync(0);
        }}
      />
      <main id="main" className="page-main app-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
