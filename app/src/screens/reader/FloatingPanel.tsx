import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode, RefObject } from 'react';
import { createPortal } from 'react-dom';
import { focusableElements } from '../../components/focusable-elements';
import { popoverPosition, type Box } from './popover-position';

const NARROW_QUERY = '(max-width: 40rem)';

export interface FloatingPanelProps {
  label: string;
  /** What the panel is about, in viewport coordinates when it opened. */
  anchor: Box;
  onClose: () => void;
  /**
   * 'page' scrolls with the text it points at (a selection, a mark); 'viewport' stays put under the
   * sticky toolbar. On a narrow screen both become a sheet at the bottom, clear of the phone's own
   * selection menu.
   */
  attach: 'page' | 'viewport';
  /** Move focus into the panel on open (not while a touch selection is still being adjusted). */
  takeFocus?: boolean;
  /** A press on this element is not "outside" (the button that toggles the panel). */
  triggerRef?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}

/**
 * A small non-modal dialog next to what it is about. Esc and a press outside close it; focus goes back
 * where it came from when it closes with focus inside.
 */
export function FloatingPanel({
  label,
  anchor,
  onClose,
  attach,
  takeFocus = true,
  triggerRef,
  className,
  children,
}: FloatingPanelProps) {
  const ref = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  const [narrow] = useState(() => window.matchMedia(NARROW_QUERY).matches);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);

  useLayoutEffect(() => {
    onCloseRef.current = onClose;
  });

  useLayoutEffect(() => {
    const panel = ref.current;
    if (!panel || narrow) return;
    const spot = popoverPosition(
      anchor,
      { width: panel.offsetWidth, height: panel.offsetHeight },
      { width: document.documentElement.clientWidth, height: window.innerHeight },
    );
    setPosition(
      attach === 'page' ? { top: spot.top + window.scrollY, left: spot.left + window.scrollX } : spot,
    );
  }, [anchor, attach, narrow]);

  useEffect(() => {
    const panel = ref.current;
    if (!panel) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (takeFocus) (focusableElements(panel)[0] ?? panel).focus({ preventScroll: true });

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
      }
    };
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (panel.contains(target) || triggerRef?.current?.contains(target)) return;
      // A modal opened from the panel is not outside it.
      if (target instanceof Element && target.closest('.modal-backdrop')) return;
      onCloseRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
      if (panel.contains(document.activeElement) && returnTo?.isConnected) {
        returnTo.focus({ preventScroll: true });
      }
    };
  }, [takeFocus, triggerRef]);

  const placement = narrow ? 'floating-panel--sheet' : `floating-panel--${attach}`;
  return createPortal(
    <div
      ref={ref}
      role="dialog"
      aria-label={label}
      tabIndex={-1}
      className={['floating-panel', placement, className].filter(Boolean).join(' ')}
      style={position ? { top: position.top, left: position.left } : undefined}
      data-placed={narrow || position !== null}
    >
      {children}
    </div>,
    document.body,
  );
}
