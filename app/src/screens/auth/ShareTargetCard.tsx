import { useId, type ReactNode } from 'react';
import { PRODUCT_NAME } from '@lectern/shared-schema';
import './share-target.css';

/**
 * The card of the pages that save one link, /share (a phone's share sheet) and /save (the bookmarklet's
 * window): titled "Save to Lectern", the page's title too, and read out as its content changes.
 */
export function ShareTargetCard({ children }: { children: ReactNode }) {
  const titleId = useId();
  return (
    <div className="container share-target">
      <title>{`Save to ${PRODUCT_NAME}`}</title>
      <section className="card card--raised share-target__card" aria-labelledby={titleId} aria-live="polite">
        <h1 id={titleId} className="share-target__title">
          Save to {PRODUCT_NAME}
        </h1>
        {children}
      </section>
    </div>
  );
}
