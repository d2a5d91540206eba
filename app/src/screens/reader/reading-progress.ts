// Reading progress as a fraction of the article body: 0 with the page at the top, 1 once the end of
// the body has come into view. The same geometry turns a stored fraction back into a scroll position.

export interface BodyGeometry {
  /** The body's top, from the top of the document. */
  bodyTop: number;
  bodyHeight: number;
  viewportHeight: number;
}

/** The scroll position at which the body's end reaches the bottom of the viewport. */
function endScroll({ bodyTop, bodyHeight, viewportHeight }: BodyGeometry): number {
  return bodyTop + bodyHeight - viewportHeight;
}

export function progressAt(scrollY: number, geometry: BodyGeometry): number {
  const end = endScroll(geometry);
  if (end <= 0) return 1;
  return Math.min(1, Math.max(0, scrollY / end));
}

export function scrollForProgress(progress: number, geometry: BodyGeometry): number {
  const end = endScroll(geometry);
  return end <= 0 ? 0 : Math.round(Math.min(1, Math.max(0, progress)) * end);
}

/** Progress is stored in hundredths: finer steps would only add writes to sync. */
export function roundProgress(progress: number): number {
  return Math.round(Math.min(1, Math.max(0, progress)) * 100) / 100;
}
