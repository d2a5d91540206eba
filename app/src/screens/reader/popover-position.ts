// Where a small popup goes next to what it is about: below the anchor when there is room, else above,
// always inside the viewport with a margin.

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

const MARGIN = 8;
const GAP = 10;

export function popoverPosition(
  anchor: Box,
  popup: { width: number; height: number },
  viewport: { width: number; height: number },
): { top: number; left: number } {
  const below = anchor.top + anchor.height + GAP;
  const above = anchor.top - GAP - popup.height;
  const fitsBelow = below + popup.height <= viewport.height - MARGIN;
  const top = fitsBelow || above < MARGIN ? Math.min(below, viewport.height - MARGIN - popup.height) : above;
  const centred = anchor.left + anchor.width / 2 - popup.width / 2;
  const left = Math.min(Math.max(MARGIN, centred), viewport.width - MARGIN - popup.width);
  return { top: Math.max(MARGIN, top), left: Math.max(MARGIN, left) };
}
