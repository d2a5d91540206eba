// A PNG of random grey noise, made in memory: an image OCR takes a long time over, for timeout tests.
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function noisePng(width: number, height: number, seed = 1): Buffer {
  const rows = Buffer.alloc((width + 1) * height);
  let state = seed;
  for (let y = 0; y < height; y += 1) {
    const start = y * (width + 1);
    rows[start] = 0; // no filter
    for (let x = 1; x <= width; x += 1) {
      state = (state * 1103515245 + 12345) >>> 0;
      rows[start + x] = state >>> 24;
    }
  }
  return greyscalePng(width, height, rows);
}

/** An 8-bit greyscale PNG of these rows (each a filter byte, then `width` samples). */
export function greyscalePng(width: number, height: number, rows: Buffer, level?: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, level === undefined ? {} : { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
