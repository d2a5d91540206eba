import { useEffect, useRef } from 'react';
import { PRODUCT_NAME } from '@lectern/shared-schema';
import { bookmarkletHref, bookmarkletKey } from './bookmarklet';
import './bookmarklet.css';

/**
 * The "Save to Lectern" link to drag to the bookmarks bar, with a small picture of how. Offered on the
 * profile screen and the Help page.
 */
export function BookmarkletOffer() {
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    // React refuses javascript: addresses in href (it guards against injected ones); this one is ours.
    link.current?.setAttribute('href', bookmarkletHref(window.location.origin, bookmarkletKey()));
  }, []);
  return (
    <div className="bookmarklet">
      <div className="bookmarklet__how">
        <DragPicture />
        <ol className="bookmarklet__steps">
          <li>Show your browser’s bookmarks bar (Ctrl+Shift+B, or ⌘+Shift+B on a Mac).</li>
          <li>Drag the button below onto the bar.</li>
          <li>
            On any article, click it: a small {PRODUCT_NAME} window saves the page as you see it, even one
            behind your sign-in, and the page shows “Saved to {PRODUCT_NAME}”.
          </li>
        </ol>
      </div>
      <p>
        <a
          ref={link}
          className="bookmarklet__link"
          draggable
          onClick={(event) => {
            // Clicked here it would save Lectern itself: it is meant to be dragged.
            event.preventDefault();
          }}
        >
          Save to {PRODUCT_NAME}
        </a>
      </p>
      <p className="bookmarklet__note">
        Allow pop-ups for a site if your browser asks. Made for this browser: on another computer, drag it
        again from your profile or this Help page.
      </p>
    </div>
  );
}

/** A browser window: the button travels from the page to the bookmarks bar. */
function DragPicture() {
  return (
    <svg
      className="bookmarklet__picture"
      viewBox="0 0 240 140"
      role="img"
      aria-label="Dragging the Save to Lectern button onto the browser's bookmarks bar"
    >
      <rect x="4" y="4" width="232" height="132" rx="10" fill="#fff" stroke="#c9c4bb" strokeWidth="2" />
      <rect x="4" y="4" width="232" height="22" rx="10" fill="#ece8e1" />
      <circle cx="18" cy="15" r="4" fill="#d9534f" />
      <circle cx="30" cy="15" r="4" fill="#f0ad4e" />
      <circle cx="42" cy="15" r="4" fill="#5cb85c" />
      <rect x="4" y="26" width="232" height="22" fill="#f6f4f0" />
      <rect x="14" y="31" width="86" height="12" rx="6" fill="#1f6f6b" />
      <text x="57" y="40.5" textAnchor="middle" fontSize="8" fill="#fff" fontFamily="sans-serif">
        Save to {PRODUCT_NAME}
      </text>
      <rect x="20" y="62" width="140" height="8" rx="4" fill="#e3dfd8" />
      <rect x="20" y="78" width="190" height="6" rx="3" fill="#ece8e1" />
      <rect x="20" y="90" width="176" height="6" rx="3" fill="#ece8e1" />
      <rect x="20" y="102" width="184" height="6" rx="3" fill="#ece8e1" />
      <rect x="120" y="112" width="86" height="14" rx="7" fill="#1f6f6b" opacity="0.55" />
      <path
        d="M150 110 C 140 80, 100 70, 70 50"
        fill="none"
        stroke="#1f6f6b"
        strokeWidth="2"
        strokeDasharray="4 3"
        markerEnd="url(#bookmarklet-arrow)"
      />
      <defs>
        <marker
          id="bookmarklet-arrow"
          viewBox="0 0 10 10"
          refX="5"
          refY="5"
          markerWidth="6"
          markerHeight="6"
          orient="auto"
        >
          <path d="M0 0 L10 5 L0 10 z" fill="#1f6f6b" />
        </marker>
      </defs>
    </svg>
  );
}
