// User-facing texts of spec sections 2, 4, 5 and 8, word for word. Templates take their values here so
// every screen words them the same way.
import { CHANGES_MAX_LIMIT } from './constants';

export const MESSAGES = {
  loading: 'Loading...',
  loggingIn: 'Logging you in...',

  authFailed: 'Authentication failed',

  invalidUrl: 'Please enter a valid URL',
  invalidHttpUrl: 'Please enter a valid HTTP or HTTPS URL',
  saveNetworkError: 'Network error. Please check your connection and try again.',
  saveNotFound: 'Could not fetch the article. Please check the URL.',
  saveInvalid: 'Invalid URL or article format',
  saveFailed: 'Failed to save article',

  articleLoadFailed: 'Failed to load article',
  noContent: 'Full article content could not be extracted.',

  noArticlesFound: 'No articles found',
  noArticlesFoundHint: 'Try adjusting your search or filters',
  noArticlesYet: 'No articles yet - save your first one!',

  highlightSaveFailed: 'Failed to save highlight',
  highlightDeleteFailed: 'Failed to delete highlight',
  highlightAdded: '✓ Highlight added!',
  highlightDeleted: 'Highlight deleted',

  listCreateFailed: 'Failed to create list',
  listDeleteFailed: 'Failed to delete list',
  listArticlesLoadFailed: 'Failed to load articles',
  listAddArticlesFailed: 'Failed to add articles',
  listRemoveArticleFailed: 'Failed to remove article',
  listDeleted: 'List deleted',
  listArticleRemoved: 'Article removed from list',
  listNameLabel: 'List Name *',
  shareUrlCopied: '✓ Share URL copied to clipboard!',
  shareLinkRotated: '✓ New share link made. The old link no longer works.',
  shareLinkRotateFailed: 'Failed to make a new share link',

  publicListNotFound: 'Reading List Not Found',
  publicListLoadFailed: 'Failed to load reading list',
  publicListEmpty: 'This reading list is empty.',
  anonymousOwner: 'Anonymous',

  profileUpdateFailed: 'Failed to update profile',
  profileUpdated: '✓ Profile updated successfully!',
  exportFailed: 'Failed to export data',
  exported: '✓ Data exported successfully!',
  accountDeleteFailed: 'Failed to delete account',
  accountDeleted: 'Account deleted',
  deleteConfirmWarning: 'Please type DELETE to confirm',

  /** Saving an address the library already holds answers that article instead of a second copy. */
  alreadyInLibrary: 'Already in your library',
} as const;

/** '✓ List "Weekend reads" created successfully!' */
export function listCreatedMessage(name: string): string {
  return `✓ List "${name}" created successfully!`;
}

/** '✓ Added 3 article(s)' */
export function articlesAddedMessage(count: number): string {
  return `✓ Added ${count} article(s)`;
}

/** The highlights preview popup lists a few and then '+ n more'. */
export function moreHighlightsLabel(count: number): string {
  return `+ ${count} more`;
}

/** Texts the server answers with in `{error}`; the client shows them as they come. */
export const SERVER_ERRORS = {
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  unauthorized: 'Please sign in to continue',
  syncEventsTicketInvalid: 'This live-updates ticket has expired or is not valid. Ask for a new one.',
  changesLimitTooLarge: `Invalid querystring: limit must be <= ${CHANGES_MAX_LIMIT} unless cards=true`,
  tooManyLogins: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  signInsInProgress: 'Too many sign-ins at once for this account. Please try again in a moment.',
  tooManyRegistrations: 'Too many sign-ups from this network. Please try again later.',
  tooLarge: 'The request is too large',
  pageHtmlTooLarge: 'The page is larger than 5 MB',
  idTaken: 'This id is already in use',
  articleNotFound: 'Article not found',
  tagNotFound: 'Tag not found',
  listNotFound: 'Reading list not found',
  highlightNotFound: 'Highlight not found',
  importNotFound: 'Import not found',
  importFileMissing: 'Send the export file as multipart form data in the field "file"',
  importTooLarge: 'The export file is larger than 50 MB. Split it into smaller files.',
  importUnknownSource:
    'Unknown source: choose pocket, instapaper, omnivore, wallabag, raindrop or bookmarks (or leave it out)',
  importRunning: 'An import is still being written to your library. Please wait for it to finish.',
  importReading: 'Your last export file is still being read. Please wait for it to finish.',
  articleNotPendingFetch: 'Only an article whose page could not be fetched can be fetched again',
  tooManyTags: 'An article takes at most 50 tags of at most 100 characters each',
  tooManySaves: 'Too many saves at once. Please wait for the ones in progress to finish.',
  tooManyUploads: 'Too many screenshots at once. Please wait for the ones in progress to finish.',
  serverBusy: 'The server is busy right now. Please try again in a minute.',
  screenshotTimedOut: 'Reading the screenshot took too long. Try a smaller or clearer image.',
  highlightTooShort: 'A highlight needs at least 3 characters (not counting spaces at either end)',
  tagNameTaken: 'A tag with this name already exists',
  reorderMismatch: 'The new order must list every article of the list exactly once',
  googleNotConfigured: 'Google sign-in is not configured on this server',
  googleFailed: 'Google sign-in failed. Please try again.',
  googleEmailTaken: 'An account with this email already exists. Please sign in with your email and password.',
  googleSignInExpired: 'This Google sign-in has expired or was already used. Please try again.',
  googleEmailUnverified:
    'Google has not verified the email of this Google account. Please verify it with Google and try again.',
  signInsBusy: 'Too many sign-ins and sign-ups at once on this server. Please try again in a moment.',
  notFound: 'Not found',
  internal: 'Something went wrong on our side. Please try again.',
} as const;

/**
 * The codes Google sign-in hands back in /auth/callback?error=. The app shows the fixed text of a code it
 * knows and a generic one for anything else, so nobody can put words on the screen through a link.
 */
export const GOOGLE_SIGN_IN_ERRORS = {
  google_not_configured: SERVER_ERRORS.googleNotConfigured,
  google_failed: SERVER_ERRORS.googleFailed,
  google_email_taken: SERVER_ERRORS.googleEmailTaken,
  google_expired: SERVER_ERRORS.googleSignInExpired,
  google_email_unverified: SERVER_ERRORS.googleEmailUnverified,
  google_not_started: 'This sign-in was not started in this tab. Please use Continue with Google again.',
} as const;
export type GoogleSignInErrorCode = keyof typeof GOOGLE_SIGN_IN_ERRORS;

export function googleSignInErrorMessage(code: string | null): string {
  return code !== null && Object.hasOwn(GOOGLE_SIGN_IN_ERRORS, code)
    ? GOOGLE_SIGN_IN_ERRORS[code as GoogleSignInErrorCode]
    : SERVER_ERRORS.googleFailed;
}
