// Draws the app icons from the logo geometry the in-app <LogoMark> uses, so they never drift apart.
// Run from the repository root: npx tsx app/scripts/make-icons.ts  (the PNGs are committed).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import {
  LOGO_BOOKMARK,
  LOGO_MARK_COLOR,
  LOGO_TILE_COLOR,
  LOGO_TILE_RADIUS,
  LOGO_VIEWBOX,
  logoBookmarkPoints,
} from '../src/components/logo-geometry';

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const SUBSAMPLES = 4; // 4x4 samples per pixel give smooth edges without an image library.

interface IconSpec {
  file: string;
  size: number;
  /** Full-bleed tiles for platforms that cut their own shape (maskable, Apple touch icons). */
  fullBleed: boolean;
  /** Scale of the bookmark around the tile's centre; maskable icons keep it inside the 80% safe zone. */
  markScale: number;
}

const ICONS: IconSpec[] = [
  { file: 'icon-192.png', size: 192, fullBleed: false, markScale: 1 },
  { file: 'icon-512.png', size: 512, fullBleed: false, markScale: 1 },
  { file: 'maskable-512.png', size: 512, fullBleed: true, markScale: 0.78 },
  { file: 'apple-touch-icon.png', size: 180, fullBleed: true, markScale: 0.9 },
  { file: 'favicon-32.png', size: 32, fullBleed: false, markScale: 1.1 },
];

type Rgb = [number, number, number];

function hexToRgb(hex: string): Rgb {
  return [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16)) as Rgb;
}

function insideRoundedTile(x: number, y: number): boolean {
  const r = LOGO_TILE_RADIUS;
  const max = LOGO_VIEWBOX;
  const cx = Math.min(Math.max(x, r), max - r);
  const cy = Math.min(Math.max(y, r), max - r);
  return x >= 0 && y >= 0 && x <= max && y <= max && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function insidePolygon(x: number, y: number, points: readonly (readonly [number, number])[]): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!;
    const [xj, yj] = points[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function drawIcon({ size, fullBleed, markScale }: IconSpec): Buffer {
  const png = new PNG({ width: size, height: size });
  const tile = hexToRgb(LOGO_TILE_COLOR);
  const mark = hexToRgb(LOGO_MARK_COLOR);
  const centre = LOGO_VIEWBOX / 2;
  const bookmark = LOGO_BOOKMARK.map(
    ([x, y]) => [centre + (x - centre) * markScale, centre + (y - centre) * markScale] as const,
  );
  const unitsPerPixel = LOGO_VIEWBOX / size;
  const samples = SUBSAMPLES * SUBSAMPLES;

  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let tileHits = 0;
      let markHits = 0;
      for (let sy = 0; sy < SUBSAMPLES; sy++) {
        for (let sx = 0; sx < SUBSAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SUBSAMPLES) * unitsPerPixel;
          const y = (py + (sy + 0.5) / SUBSAMPLES) * unitsPerPixel;
          if (fullBleed || insideRoundedTile(x, y)) tileHits++;
          if (insidePolygon(x, y, bookmark)) markHits++;
        }
      }
      const markShare = markHits / samples;
      const offset = (py * size + px) * 4;
      for (let channel = 0; channel < 3; channel++) {
        png.data[offset + channel] = Math.round(
          tile[channel]! * (1 - markShare) + mark[channel]! * markShare,
        );
      }
      png.data[offset + 3] = Math.round((tileHits / samples) * 255);
    }
  }
  return PNG.sync.write(png);
}

function faviconSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${LOGO_VIEWBOX} ${LOGO_VIEWBOX}"><rect width="${LOGO_VIEWBOX}" height="${LOGO_VIEWBOX}" rx="${LOGO_TILE_RADIUS}" fill="${LOGO_TILE_COLOR}"/><polygon points="${logoBookmarkPoints()}" fill="${LOGO_MARK_COLOR}"/></svg>\n`;
}

mkdirSync(OUT_DIR, { recursive: true });
for (const icon of ICONS) {
  writeFileSync(join(OUT_DIR, icon.file), drawIcon(icon));
  console.log(`wrote ${icon.file}`);
}
writeFileSync(join(OUT_DIR, 'favicon.svg'), faviconSvg());
console.log('wrote favicon.svg');
