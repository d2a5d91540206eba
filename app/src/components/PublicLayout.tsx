import type { ReactNode } from 'react';
import { Footer } from './Footer';
import { NavBar } from './NavBar';
import type { NavBarProps } from './NavBar';

export interface PublicLayoutProps extends Omit<NavBarProps, 'variant'> {
  children: ReactNode;
}

/** The frame of the public pages: skip link, the static navigation bar, the page, the footer. */
export function PublicLayout({ children, ...navBarProps }: PublicLayoutProps) {
  return (
    <div className="app-frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar variant="static" {...navBarProps} />
      <main id="main" className="page-main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  );
}
