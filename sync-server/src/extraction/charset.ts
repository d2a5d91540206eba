// Turning the bytes of a page into text the way a browser would: a byte order mark wins, then the
// Content-Type charset, then a <meta> charset near the top, then UTF-8 if the bytes are valid UTF-8,
// and windows-1252 (the web's legacy default) otherwise.

/** How far into the page a <meta charset> is looked for; the HTML spec prescans 1024 bytes. */
const META_PRESCAN_BYTES = 4096;

export function decodeHtml(bytes: Uint8Array, contentType: string | undefined): string {
  const label =
    byteOrderMarkCharset(bytes) ?? usableCharset(charsetOfContentType(contentType)) ?? metaCharset(bytes);
  if (label) return new TextDecoder(label).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
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
