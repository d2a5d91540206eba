// Business constants of spec section 9, and the few product-wide names DESIGN.md pins.

export const PRODUCT_NAME = 'Lectern';

export const PASSWORD_MIN_LENGTH = 8;
export const USERNAME_MAX_LENGTH = 50;

export const TOAST_DURATION_MS = 3000;
export const SEARCH_DEBOUNCE_MS = 300;
export const HIGHLIGHT_REAPPLY_DELAY_MS = 500;
export const DELETE_ACCOUNT_LOGOUT_DELAY_MS = 2000;
export const CONTACT_FORM_RESET_DELAY_MS = 3000;

export const HIGHLIGHT_MIN_LENGTH = 3;
export const HIGHLIGHT_CONTEXT_LENGTH = 50;
export const HIGHLIGHT_PREVIEW_MAX_LENGTH = 100;
export const HIGHLIGHTS_POPUP_MAX = 3;
export const HIGHLIGHT_COLOR = 'yellow';

export const RECENT_HIGHLIGHTS_DEFAULT_LIMIT = 10;
export const RECENT_HIGHLIGHTS_MAX_LIMIT = 100;
export const DASHBOARD_SKELETON_COUNT = 6;

export const ANALYTICS_TOP_TAGS = 5;
export const ANALYTICS_MONTHS = 6;
export const STREAK_MAX_DAYS = 365;

export const LIST_DESCRIPTION_PREVIEW_LENGTH = 150;
export const DELETE_CONFIRM_PHRASE = 'DELETE';
export const TOKEN_STORAGE_KEY = 'token';

/** A url starting with this scheme marks a screenshot article (the spec's `{address}` scheme). */
export const SCREENSHOT_URL_SCHEME = 'screenshot://';

/** Tokens stay valid this long so that devices offline for weeks keep working. */
export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

/** Words per minute used for reading time; a reading time is never below one minute. */
export const READING_WORDS_PER_MINUTE = 200;

/** Largest page of the change feed one pull may ask for. */
export const CHANGES_MAX_LIMIT = 1000;
/**
 * Largest page of cards (`cards=true`: articles without their body, a new device's first sync) one pull
 * may ask for: a card is about a kilobyte, and each page costs the device a transaction and a render.
 */
export const CARDS_MAX_LIMIT = 5000;
export const CHANGES_DEFAULT_LIMIT = 500;

/**
 * POST /api/articles/bodies (a new device's bodies, after the cards of its first sync): ids one call may
 * ask for, and about how many bytes of bodies one answer carries (always at least one
 * body, so a long read still comes; the ids left out are asked for again).
 */
export const BODIES_MAX_IDS = 100;
export const BODIES_ANSWER_BYTES = 2 * 1024 * 1024;

/** Tags one save may carry, and the length of a tag name: the JSON body and the screenshot form alike. */
export const ARTICLE_TAGS_MAX = 50;
export const TAG_NAME_MAX_LENGTH = 100;

/**
 * Largest export file an import takes (issue 12): the server answers 413 past it, and the app says so before
 * reading or uploading it. Pocket's and Omnivore's largest exports are a few MB.
 */
export const IMPORT_MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * The page a browser sends with a save (`html` of POST /articles: its serialised DOM), at most this many
 * bytes of UTF-8; a larger one answers 413. Half of what the server fetches itself (10 MB): a page the
 * reader is looking at has already dropped what a fetch would have to skip.
 */
export const PAGE_HTML_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Images of one article the server archives (issue 14): the lead image and the body's, in the order they
 * appear; those past the count, or past the article's bytes, are dropped from the archived body.
 */
export const ARCHIVED_IMAGES_PER_ARTICLE = 40;
/** One archived image at most: larger ones are dropped (a photo at full resolution is a few MB). */
export const ARCHIVED_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** An article's archived images together at most. */
export const ARCHIVED_IMAGES_MAX_BYTES_PER_ARTICLE = 25 * 1024 * 1024;
/** Where archived images are served: `/api/images/{articleId}/{sha256hex}.{ext}` (same origin as the app). */
export const ARCHIVED_IMAGE_PATH = '/api/images/';

/** Search results returned at most, articles and highlights alike. */
export const SEARCH_RESULT_LIMIT = 50;
/**
 * The server's search ranks at most this many matches, the newest, on either database engine: a word found in
 * nearly every article still answers fast.
 */
export const SEARCH_RANK_WINDOW = 500;

/**
 * What a search's words found in each field of an article are worth, the text's own being 1: an article
 * holding them in its title comes before one holding them in its tags, its description, its author, its
 * address, then its text alone. The server ranks by them (services/search-sqlite.ts; PostgreSQL folds them
 * into its four classes, db/postgres/search.ts) and so does the device's offline search
 * (search/article-search.ts), so both answer in the same order.
 */
export const SEARCH_FIELD_WEIGHTS = {
  title: 10,
  tags: 5,
  description: 4,
  author: 3,
  url: 2,
  text: 1,
} as const;

/** `lectern-export-2026-11-22.json`: the product name, 'export' and the ISO date (section 9). */
export function exportFileName(date: Date): string {
  return `${PRODUCT_NAME.toLowerCase()}-export-${date.toISOString().slice(0, 10)}.json`;
}

/** `lectern-highlights-2026-11-22.zip`: every article's highlights as Markdown. */
export function highlightsExportFileName(date: Date): string {
  return `${PRODUCT_NAME.toLowerCase()}-highlights-${date.toISOString().slice(0, 10)}.zip`;
}

/** `lectern-bookmarks-2026-11-22.html`: the library as a Netscape bookmark file. */
export function bookmarksExportFileName(date: Date): string {
  return `${PRODUCT_NAME.toLowerCase()}-bookmarks-${date.toISOString().slice(0, 10)}.html`;
}
