// The Lectern mark: a bookmark on a rounded tile. Shared by <LogoMark> and scripts/make-icons.ts so the
// app icon and the in-app logo can never drift apart.

export const LOGO_VIEWBOX = 64;
export const LOGO_TILE_RADIUS = 15;
export const LOGO_TILE_COLOR = '#1f6f6b';
export const LOGO_MARK_COLOR = '#ffffff';

/** The bookmark outline, clockwise, in viewBox units. */
export const LOGO_BOOKMARK: readonly (readonly [number, number])[] = [
  [21, 13],
  [43, 13],
  [43, 52],
  [32, 43.5],
  [21, 52],
];

export function logoBookmarkPoints(): string {
  return LOGO_BOOKMARK.map(([x, y]) => `${x},${y}`).join(' ');
}
