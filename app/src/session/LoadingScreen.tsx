import { MESSAGES } from '@lectern/shared-schema';

/** What a protected route shows while the session loads (spec section 2), and the callback page's text. */
export function LoadingScreen({ message = MESSAGES.loading }: { message?: string }) {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <span className="loading-screen__spinner" aria-hidden="true" />
      <p>{message}</p>
    </div>
  );
}
