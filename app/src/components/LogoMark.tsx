import {
  LOGO_MARK_COLOR,
  LOGO_TILE_COLOR,
  LOGO_TILE_RADIUS,
  LOGO_VIEWBOX,
  logoBookmarkPoints,
} from './logo-geometry';

export function LogoMark({ className = 'logo-mark' }: { className?: string }) {
  return (
    <svg
      className={className}
      viewBox={`0 0 ${LOGO_VIEWBOX} ${LOGO_VIEWBOX}`}
      aria-hidden="true"
      focusable="false"
    >
      <rect width={LOGO_VIEWBOX} height={LOGO_VIEWBOX} rx={LOGO_TILE_RADIUS} fill={LOGO_TILE_COLOR} />
      <polygon points={logoBookmarkPoints()} fill={LOGO_MARK_COLOR} />
    </svg>
  );
}
