// Spec section 8's texts for a refused save, used by the online save and by a replayed offline one.
import { MESSAGES } from '@lectern/shared-schema';
import { ApiError, NetworkError } from '../api/http-client';

export function saveErrorMessage(error: unknown): string {
  if (error instanceof NetworkError) return MESSAGES.saveNetworkError;
  if (!(error instanceof ApiError)) return MESSAGES.saveFailed;
  if (error.status === 404) return MESSAGES.saveNotFound;
  if (error.status === 400) return error.serverMessage ?? MESSAGES.saveInvalid;
  return error.serverMessage ?? MESSAGES.saveFailed;
}
