// In a module of its own: the screens catch it by class, and importing it must not bring the repository (and
// Dexie behind it) into the first screen's JavaScript (data/index.ts).

/** A save the form shows inline and as a toast, in spec section 8's words. */
export class SaveArticleError extends Error {
  constructor(
    message: string,
    /** The HTTP status, 0 for a network error or a URL refused before sending. */
    readonly status: number,
  ) {
    super(message);
    this.name = 'SaveArticleError';
  }
}
