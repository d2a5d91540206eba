import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import type { User } from '@lectern/shared-schema';
import { PRODUCT_NAME } from '@lectern/shared-schema';
import { Button, buttonClassName } from './Button';
import { LogoMark } from './LogoMark';

export type NavBarUser = Pick<User, 'username' | 'email' | 'avatarUrl'>;

export interface NavBarProps {
  /** 'app' links the signed-in screens; 'static' links the five public information pages. */
  variant: 'app' | 'static';
  /** The signed-in user; without one the bar offers Sign In. */
  user?: NavBarUser | null;
  onLogout?: () => void;
  /** Called when the brand is clicked (it also links to /); the dashboard uses it to refresh itself. */
  onBrandClick?: () => void;
}

const LINKS: Record<NavBarProps['variant'], { to: string; label: string }[]> = {
  app: [
    { to: '/', label: 'Articles' },
    { to: '/highlights', label: 'Highlights' },
    { to: '/lists', label: 'Lists' },
  ],
  static: [
    { to: '/about', label: 'About' },
    { to: '/faq', label: 'FAQ' },
    { to: '/contact', label: 'Contact' },
    { to: '/blog', label: 'Blog' },
    { to: '/help', label: 'Help' },
  ],
};

export function NavBar({ variant, user, onLogout, onBrandClick }: NavBarProps) {
  const { pathname } = useLocation();
  return (
    <header className="navbar">
      <div className="navbar__inner container">
        <Link to="/" className="navbar__brand" onClick={() => onBrandClick?.()}>
          <LogoMark />
          {PRODUCT_NAME}
          <span className="badge">Beta</span>
        </Link>
        <nav className="navbar__links" aria-label="Main">
          {LINKS[variant].map((link) => (
            <NavLink key={link.to} to={link.to} end={link.to === '/'} className="navbar__link">
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="navbar__account">
          {user ? (
            <>
              <Link to="/profile" className="navbar__profile">
                <Avatar user={user} />
                <span className="navbar__name">{user.username || user.email}</span>
              </Link>
              <Button variant="secondary" size="sm" onClick={() => onLogout?.()}>
                Logout
              </Button>
            </>
          ) : (
            // On /login the card itself is the way in; a Sign In button pointing at the same page is noise.
            pathname !== '/login' && (
              <Link to="/login" className={buttonClassName({ size: 'sm' })}>
                Sign In
              </Link>
            )
          )}
        </div>
      </div>
    </header>
  );
}

function Avatar({ user }: { user: NavBarUser }) {
  const [imageFailed, setImageFailed] = useState(false);
  if (user.avatarUrl && !imageFailed) {
    return (
      <img
        className="avatar"
        src={user.avatarUrl}
        alt=""
        width={32}
        height={32}
        referrerPolicy="no-referrer"
        onError={() => setImageFailed(true)}
      />
    );
  }
  const initial = (user.username || user.email).trim().charAt(0).toUpperCase();
  return (
    <span className="avatar" aria-hidden="true">
      {initial}
    </span>
  );
}
