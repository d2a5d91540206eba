// The two ways saving a page can fail before anything is stored. Routes map them to HTTP statuses:
// a refusal is the caller's address (400), a failure is the far side not answering well (404).

/** The address or the response is one we will not save; the message says why, in the user's words. */
export class FetchRefusedError extends Error {
  override name = 'FetchRefusedError';
}

/** The page could not be fetched: unreachable host, DNS failure, timeout, upstream error. */
export class FetchFailedError extends Error {
  override name = 'FetchFailedError';
}

/** Every extraction worker stayed busy with other pages for too long: nothing is wrong with this page (429). */
export class ExtractionBusyError extends Error {
  override name = 'ExtractionBusyError';
  constructor() {
    super('Every page reader was busy for too long');
  }
}

/** The upload passed the image checks but OCR could not decode it: the client's file is at fault (400). */
export class ImageUnreadableError extends Error {
  override name = 'ImageUnreadableError';
}

export const FETCH_REFUSALS = {
  privateAddress: "This address points to a private network and can't be saved",
  scheme: 'Only http and https addresses can be saved',
  credentials: "Addresses with a user name or password can't be saved",
  invalidAddress: 'This is not a valid web address',
  notHtml: (mimeType: string) => `This page is not an HTML document (${mimeType})`,
  tooLarge: (maxBytes: number) => `The page is larger than ${formatMegabytes(maxBytes)}`,
} as const;

export const FETCH_FAILURES = {
  timeout: 'The page took too long to answer',
  unprocessable: 'The page is too large or too complex to read',
  tooManyRedirects: 'The page redirects too many times',
  badRedirect: 'The page redirects to an address that is not valid',
  upstreamStatus: (status: number) => `The page answered with HTTP status ${status}`,
  unreachable: (reason: string) => `The page could not be reached (${reason})`,
} as const;

function formatMegabytes(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  return `${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1)} MB`;
}
