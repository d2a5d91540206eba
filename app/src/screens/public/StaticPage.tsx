import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { PRODUCT_NAME } from '@lectern/shared-schema';

export interface StaticPageProps {
  /** The page's h1; also names the browser tab. */
  title: string;
  /** A short kicker above the title. */
  eyebrow?: string;
  lead?: ReactNode;
  children: ReactNode;
  /** 'prose' keeps text at a comfortable measure; 'wide' lets grids use the full content width. */
  width?: 'prose' | 'wide';
}

/** Header and body of an information page. The frame (navigation, footer) comes from PublicLayout. */
export function StaticPage({ title, eyebrow, lead, children, width = 'wide' }: StaticPageProps) {
  useScrollToHash();
  return (
    <>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <header className="page-hero">
        <div className="container page-hero__inner">
          {eyebrow && <p className="eyebrow">{eyebrow}</p>}
          <h1 className="page-hero__title">{title}</h1>
          {lead && <p className="page-hero__lead">{lead}</p>}
        </div>
      </header>
      <div className={`container page-body page-body--${width}`}>{children}</div>
    </>
  );
}

/** Client-side navigation does not scroll to `#anchor` by itself; links like /help#newsletter rely on it. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
}
