// What an uploaded screenshot really is, read from its bytes (never from the client's headers), with
// its pixel size so that a small file claiming a huge canvas (a decompression bomb) is refused before
// any decoder sees it.

export type ScreenshotImageType = 'png' | 'jpeg' | 'webp';

export interface SniffedImage {
  type: ScreenshotImageType;
  width: number;
  height: number;
}

export const MAX_SCREENSHOT_BYTES = 15 * 1024 * 1024;
/** Far above any phone or desktop screenshot (a 6K display is 20 megapixels). */
export const MAX_SCREENSHOT_PIXELS = 40_000_000;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function sniffImage(buffer: Buffer): SniffedImage | null {
  const image = sniffPng(buffer) ?? sniffJpeg(buffer) ?? sniffWebp(buffer);
  return image && image.width > 0 && image.height > 0 ? image : null;
}

function sniffPng(buffer: Buffer): SniffedImage | null {
  if (buffer.length < 24 || !buffer.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (buffer.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { type: 'png', width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
}

/** Walks the marker segments to the first start-of-frame, which carries the dimensions. */
function sniffJpeg(buffer: Buffer): SniffedImage | null {
  if (buffer.length < 4 || buffer[0] !== 0xff || buffer[1] !== 0xd8 || buffer[2] !== 0xff) return null;
  let offset = 2;
  while (offset + 4 <= buffer.length) {
    if (buffer[offset] !== 0xff) return null;
    const marker = buffer[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    const length = buffer.readUInt16BE(offset + 2);
    const isStartOfFrame =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      if (offset + 9 > buffer.length) return null;
      return {
        type: 'jpeg',
        height: buffer.readUInt16BE(offset + 5),
        width: buffer.readUInt16BE(offset + 7),
      };
    }
    if (marker === 0xd9 || length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

function sniffWebp(buffer: Buffer): SniffedImage | null {
  if (buffer.length < 30) return null;
  if (buffer.toString('latin1', 0, 4) !== 'RIFF' || buffer.toString('latin1', 8, 12) !== 'WEBP') return null;
  switch (buffer.toString('latin1', 12, 16)) {
    case 'VP8 ': // lossy: frame header after a 3-byte tag and the 9d 01 2a start code
      if (buffer[23] !== 0x9d || buffer[24] !== 0x01 || buffer[25] !== 0x2a) return null;
      return {
        type: 'webp',
        width: buffer.readUInt16LE(26) & 0x3fff,
        height: buffer.readUInt16LE(28) & 0x3fff,
      };
    case 'VP8L': {
      if (buffer[20] !== 0x2f) return null;
      const bits = buffer.readUInt32LE(21);
      return { type: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      return { type: 'webp', width: buffer.readUIntLE(24, 3) + 1, height: buffer.readUIntLE(27, 3) + 1 };
    default:
      return null;
  }
}
