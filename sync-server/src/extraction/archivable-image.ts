// What a fetched image really is, from its bytes (never from the server's content type): a raster image
// whose signature we know, or an SVG, which is kept only once sanitised (sanitize-svg.ts).
import { sniffImage } from './image-sniff';
import { sanitizeSvg } from './sanitize-svg';

export type ArchivableExt = 'png' | 'jpg' | 'gif' | 'webp' | 'avif' | 'svg';

const RASTER_EXT = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;

function isGif(bytes: Buffer): boolean {
  const signature = bytes.toString('latin1', 0, 6);
  return (signature === 'GIF87a' || signature === 'GIF89a') && bytes.length > 13;
}

/** An ISO-BMFF file whose ftyp box names AVIF as its major or one of its compatible brands. */
function isAvif(bytes: Buffer): boolean {
  if (bytes.length < 16 || bytes.toString('latin1', 4, 8) !== 'ftyp') return false;
  const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length);
  for (let offset = 8; offset + 4 <= boxSize; offset += 4) {
    if (offset === 12) continue; // the minor version, not a brand
    const brand = bytes.toString('latin1', offset, offset + 4);
    if (brand === 'avif' || brand === 'avis') return true;
  }
  return false;
}

/** True when the text starts like an SVG document (after a BOM, whitespace, an XML declaration, comments). */
export function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes.toString('utf8', 0, Math.min(bytes.length, 4096)).toLowerCase();
  return head.trimStart().startsWith('<') && head.includes('<svg');
}

export interface ArchivableImage {
  bytes: Buffer;
  ext: ArchivableExt;
}

/** A raster image we keep as it is (PNG, JPEG, GIF, WebP, AVIF), or null. */
export function archivableRaster(bytes: Buffer): ArchivableImage | null {
  const raster = sniffImage(bytes);
  if (raster) return { bytes, ext: RASTER_EXT[raster.type] };
  if (isGif(bytes)) return { bytes, ext: 'gif' };
  if (isAvif(bytes)) return { bytes, ext: 'avif' };
  return null;
}

/** The bytes to keep and their kind, or null when they are no image we keep (on this thread). */
export function archivableImage(bytes: Buffer): ArchivableImage | null {
  const raster = archivableRaster(bytes);
  if (raster) return raster;
  if (!looksLikeSvg(bytes)) return null;
  const svg = sanitizeSvg(bytes.toString('utf8'));
  return svg ? { bytes: Buffer.from(svg, 'utf8'), ext: 'svg' } : null;
}
