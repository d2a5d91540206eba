import { describe, expect, it } from 'vitest';
import { MAX_SCREENSHOT_BYTES, MAX_SCREENSHOT_PIXELS, sniffImage } from './index';

const bytes = (...parts: (number[] | string | Buffer)[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );
const u32be = (value: number) => [
  (value >>> 24) & 255,
  (value >>> 16) & 255,
  (value >>> 8) & 255,
  value & 255,
];
const u16be = (value: number) => [(value >>> 8) & 255, value & 255];
const u16le = (value: number) => [value & 255, (value >>> 8) & 255];
const u24le = (value: number) => [value & 255, (value >>> 8) & 255, (value >>> 16) & 255];

const png = (width: number, height: number) =>
  bytes(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    u32be(13),
    'IHDR',
    u32be(width),
    u32be(height),
    [8, 6, 0, 0, 0],
  );

/** SOI, a JFIF APP0, an EXIF APP1 with an embedded thumbnail marker in its data, then the frame header. */
const jpeg = (frameMarker: number, width: number, height: number) =>
  bytes(
    [0xff, 0xd8],
    [0xff, 0xe0],
    u16be(16),
    'JFIF\0',
    [1, 1, 0, 0, 1, 0, 1, 0, 0],
    [0xff, 0xe1],
    u16be(12),
    'Exif\0\0',
    [0xff, 0xc0, 0, 0],
    [0xff, 0xff], // fill byte before the next marker
    [0xff, frameMarker],
    u16be(17),
    [8],
    u16be(height),
    u16be(width),
    [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1],
  );

const webpLossy = (width: number, height: number) =>
  bytes(
    'RIFF',
    u32be(0),
    'WEBP',
    'VP8 ',
    u32be(0),
    [0x9d, 0, 0],
    [0x9d, 0x01, 0x2a],
    u16le(width),
    u16le(height),
    [0, 0],
  );
const webpLossless = (width: number, height: number) => {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  return bytes(
    'RIFF',
    u32be(0),
    'WEBP',
    'VP8L',
    u32be(0),
    [0x2f],
    [bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255],
    [0, 0, 0, 0, 0],
  );
};
const webpExtended = (width: number, height: number) =>
  bytes(
    'RIFF',
    u32be(0),
    'WEBP',
    'VP8X',
    u32be(10),
    [0, 0, 0, 0],
    u24le(width - 1),
    u24le(height - 1),
    [0, 0],
  );

describe('sniffImage', () => {
  it.each([
    ['PNG', png(1170, 2532), { type: 'png', width: 1170, height: 2532 }],
    ['baseline JPEG', jpeg(0xc0, 1080, 1920), { type: 'jpeg', width: 1080, height: 1920 }],
    ['progressive JPEG', jpeg(0xc2, 640, 480), { type: 'jpeg', width: 640, height: 480 }],
    ['lossy WebP', webpLossy(800, 600), { type: 'webp', width: 800, height: 600 }],
    ['lossless WebP', webpLossless(1170, 2532), { type: 'webp', width: 1170, height: 2532 }],
    ['extended WebP', webpExtended(16383, 16383), { type: 'webp', width: 16383, height: 16383 }],
  ])('reads the type and size of a %s from its bytes', (_name, buffer, expected) => {
    expect(sniffImage(buffer)).toEqual(expected);
  });

  it.each([
    ['GIF', bytes('GIF89a', u16le(10), u16le(10), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>')],
    ['HTML named .png', bytes('<!doctype html><html><body>not an image</body></html>')],
    ['truncated PNG', png(100, 100).subarray(0, 20)],
    ['JPEG without a frame header', bytes([0xff, 0xd8, 0xff, 0xd9])],
    ['PNG with a zero width', png(0, 100)],
    ['empty upload', Buffer.alloc(0)],
  ])('refuses a %s', (_name, buffer) => {
    expect(sniffImage(buffer)).toBeNull();
  });

  it('reports a decompression bomb honestly so the pixel cap can refuse it', () => {
    const bomb = sniffImage(png(100_000, 100_000));
    expect(bomb).toEqual({ type: 'png', width: 100_000, height: 100_000 });
    expect(bomb!.width * bomb!.height).toBeGreaterThan(MAX_SCREENSHOT_PIXELS);
    expect(1170 * 2532).toBeLessThan(MAX_SCREENSHOT_PIXELS);
    expect(MAX_SCREENSHOT_BYTES).toBe(15 * 1024 * 1024);
  });
});
