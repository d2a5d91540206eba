// Validation rules of spec section 5 as pure functions, shared by the forms and the server.
import {
  ARTICLE_TAGS_MAX,
  TAG_NAME_MAX_LENGTH,
  DELETE_CONFIRM_PHRASE,
  HIGHLIGHT_MIN_LENGTH,
  HIGHLIGHT_PREVIEW_MAX_LENGTH,
  SCREENSHOT_URL_SCHEME,
} from './constants';
import { MESSAGES } from './messages';

export type UrlCheck = { ok: true; url: string } | { ok: false; error: string };

/** The save form's rule: the URL must parse and use http or https. */
export function checkArticleUrl(input: string): UrlCheck {
  const text = input.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { ok: false, error: MESSAGES.invalidUrl };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, error: MESSAGES.invalidHttpUrl };
  }
  return { ok: true, url: parsed.href };
}

/** Comma-separated tags: trimmed, empty pieces dropped; undefined when none remains (then none is sent). */
export function parseTagInput(input: string): string[] | undefined {
  const tags = [
    ...new Set(
      input
        .split(',')
        .map((piece) => piece.trim())
        .filter((piece) => piece.length > 0),
    ),
  ];
  return tags.length > 0 ? tags : undefined;
}

/**
 * The rule a save's tags follow wherever they come from (the JSON body's schema says the same): at most
 * ARTICLE_TAGS_MAX names, each at most TAG_NAME_MAX_LENGTH characters.
 */
export function withinTagLimits(names: readonly string[]): boolean {
  return names.length <= ARTICLE_TAGS_MAX && names.every((name) => name.length <= TAG_NAME_MAX_LENGTH);
}

/** Tag names compare without regard to case or surrounding space. */
export function normalizeTagName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

/** The profile's display name defaults to the username, or the part of the email before the @. */
export function defaultDisplayName(user: { username?: string | null; email: string }): string {
  const username = user.username?.trim();
  return username ? username : (user.email.split('@')[0] ?? user.email);
}

export function isDeleteConfirmed(text: string): boolean {
  return text === DELETE_CONFIRM_PHRASE;
}

/** Spec section 9: a highlight is at least 3 characters after trimming, in the reader and on the server. */
export function isHighlightSelection(text: string): boolean {
  return text.trim().length >= HIGHLIGHT_MIN_LENGTH;
}

/** The highlight confirm popup shows the text cut at 100 characters plus '...'. */
export function highlightPreviewText(text: string): string {
  return text.length > HIGHLIGHT_PREVIEW_MAX_LENGTH
    ? `${text.slice(0, HIGHLIGHT_PREVIEW_MAX_LENGTH)}...`
    : text;
}

export function isScreenshotUrl(url: string): boolean {
  return url.startsWith(SCREENSHOT_URL_SCHEME);
}

/** Reading time is shown as 1 when missing. */
export function displayReadingTime(minutes: number | null | undefined): number {
  return minutes && minutes > 0 ? minutes : 1;
}
