// Turning the bytes of a page into text the way a browser would: a byte order mark wins, then the
// Content-Type charset, then a <meta> charset near the top, then UTF-8 if the bytes are valid UTF-8,
// and windows-1252 (the web's legacy default) otherwise.

/** How far into the page a <meta charset> is looked for; the HTML spec prescans 1024 bytes. */
const META_PRESCAN_BYTES = 4096;

export function decodeHtml(bytes: Uint8Array, contentType: string | undefined): string {
  const label =
    byteOrderMarkCharset(bytes) ?? usableCharset(charsetOfContentType(contentType)) ?? metaCharset(bytes);
  if (label) return decode(bytes, label);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decode(bytes, 'windows-1252');
  }
}

function decode(bytes: Uint8Array, encoding: string): string {
  return encoding === 'windows-1252' ? decodeWindows1252(bytes) : new TextDecoder(encoding).decode(bytes);
}

/**
 * Node 20's TextDecoder decodes windows-1252 (and so every iso-8859-1 page) as plain Latin-1, turning
 * curly quotes, dashes and the euro sign into control characters; these are the 0x80-0x9F code points
 * the WHATWG Encoding standard assigns.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Code unit of each byte: Latin-1, except the 0x80-0x9F row. */
const WINDOWS_1252_CODE_UNITS = Uint16Array.from({ length: 256 }, (_, byte) =>
  byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH.charCodeAt(byte - 0x80) : byte,
);

/**
 * One table lookup per byte. This runs on the main thread over pages of up to 10 MB: a replace callback
 * per 0x80-0x9F byte took 1.5 s there for a page made of them.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length);
  for (let index = 0; index < bytes.length; index += 1)
    units[index] = WINDOWS_1252_CODE_UNITS[bytes[index]!]!;
  return Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le');
}

export function charsetOfContentType(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? '');
  return match?.[2];
}

function byteOrderMarkCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, META_PRESCAN_BYTES)).toString('latin1');
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const match = /charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(tag);
    // A page can't really be UTF-16 if its ASCII <meta> was readable; browsers then use UTF-8.
    const label = match?.[1] && /^utf-16/i.test(match[1]) ? 'utf-8' : match?.[1];
    const usable = usableCharset(label);
    if (usable) return usable;
  }
  return undefined;
}

/** The label if TextDecoder knows it (WHATWG labels: iso-8859-1 decodes as windows-1252, as browsers do). */
function usableCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}
