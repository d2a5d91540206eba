// How free-text fields are stored, alike on the device and the server.

/** An optional text (a list's description): trimmed, and null when nothing remains. */
export function emptyToNull(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}

/**
 * Cut at a word boundary to at most `maxLength` characters plus '…' (a screenshot's title and summary).
 * A word longer than half the room is cut inside it rather than leaving almost nothing.
 */
export function truncateAtWord(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), maxLength / 2)).trimEnd()}…`;
}
