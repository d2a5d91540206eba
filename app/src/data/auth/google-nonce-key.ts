// Apart from auth-api.ts, so that naming it (data/index.ts) brings nothing of the data layer with it.

/** Where a tab keeps the nonce of the Google sign-in it started. */
export const GOOGLE_NONCE_KEY = 'lectern.googleSignInNonce';
