// Retry on an imported article whose page could not be fetched (the dashboard card and the reader).
import { useCallback } from 'react';
import { useToast } from '../components/use-toast';
import { ApiError, NetworkError } from '../data';
import { useLectern } from '../session/use-lectern';

export const RETRY_FETCH_OFFLINE =
  'You’re offline. Fetching the page again needs a connection to the server.';
const RETRY_FETCH_FAILED = 'Couldn’t fetch the page again. Please try later.';

/** Asks the server to fetch the page again; the fetched page then arrives through the feed. */
export function useRetryFetch() {
  const lectern = useLectern();
  const { showToast } = useToast();
  return useCallback(
    async (articleId: string) => {
      try {
        await lectern.articles.retryFetch(articleId);
        showToast('Fetching the page again', 'info');
      } catch (error) {
        const message =
          error instanceof NetworkError
            ? RETRY_FETCH_OFFLINE
            : error instanceof ApiError && error.serverMessage
              ? error.serverMessage
              : RETRY_FETCH_FAILED;
        showToast(message, 'error');
      }
    },
    [lectern, showToast],
  );
}
