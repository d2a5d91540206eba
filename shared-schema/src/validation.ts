// Validation rules of spec section 5, each written once: a pure function for code, and for the rules a JSON
// Schema can state, the pattern payloads.ts builds the request schemas from. The server applies them through
// those schemas (and in services/ where a schema can't say it, as for a URL that must parse); the app
// applies them in its forms and in data/repository, so that a write made offline is refused as the server
// would refuse it. Only the app can check the rest (delete confirmation, contact form, selected articles).
import {
  ARTICLE_TAGS_MAX,
  TAG_NAME_MAX_LENGTH,
  DELETE_CONFIRM_PHRASE,
  HIGHLIGHT_MIN_LENGTH,
  HIGHLIGHT_PREVIEW_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SCREENSHOT_URL_SCHEME,
} from './constants';
import { MESSAGES, SERVER_ERRORS } from './messages';

/**
 * What the server answers when a body field breaks its schema, by field, and what the app says for the
 * same field. A highlight's text has its own sentence (spec section 5's 3 characters).
 */
export const FIELD_ERRORS = {
  email: 'Please enter a valid email address',
  password: `Please enter a password of at least ${PASSWORD_MIN_LENGTH} characters`,
  username: 'Please enter a username',
  url: 'Please enter a URL',
  name: 'Please enter a name',
  highlightedText: SERVER_ERRORS.highlightTooShort,
} as const;

const EMAIL_CHARACTER = "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]";
const DOMAIN_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';

/**
 * Sign-up and sign-in: the email must be an email. The rule the server applied before it lived here
 * (ajv-formats' "email"): dot-separated words before the @, and a domain with at least one dot. The
 * browser's own check of type="email" lets "ada@localhost" through; this one doesn't.
 */
export const EMAIL_PATTERN = `^${EMAIL_CHARACTER}+(?:\\.${EMAIL_CHARACTER}+)*@(?:${DOMAIN_LABEL}\\.)+${DOMAIN_LABEL}$`;

export function isEmailAddress(text: string): boolean {
  return new RegExp(EMAIL_PATTERN, 'u').test(text);
}

/** Required text (a username, a list's or a tag's name): something besides spaces. */
export const FILLED_IN_PATTERN = '\\S';

export function isFilledIn(text: string): boolean {
  return new RegExp(FILLED_IN_PATTERN, 'u').test(text);
}

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

/**
 * Spec sections 5 and 9: a highlight is at least 3 characters after trimming, in the reader, in the app's
 * repository and on the server. A character is a code point ("😀a" is 2), as the schemas' lengths count.
 */
export function isHighlightSelection(text: string): boolean {
  return Array.from(text.trim()).length >= HIGHLIGHT_MIN_LENGTH;
}

/**
 * The same rule for the request schemas (ajv matches patterns with the u flag): a non-space character, then
 * at least HIGHLIGHT_MIN_LENGTH - 2 characters, then a later non-space one. Linear: each start backtracks
 * once over the text, and only a few starts fail (there are at most two non-space characters then).
 */
export const HIGHLIGHT_TEXT_PATTERN = `\\S[\\s\\S]{${HIGHLIGHT_MIN_LENGTH - 2},}\\S`;

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
