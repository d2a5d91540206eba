// Spec section 8: a failed sign-in or sign-up shows the server's error field, else 'Authentication failed'.
// (The spec's other source, the first msg of an `errors` list, never comes from this server: it answers
// every refusal with `{error}`.)
import { MESSAGES } from '@lectern/shared-schema';
import { ApiError } from '../data';
import { SignInCancelledError } from './use-session';

export function authErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  if (error instanceof SignInCancelledError) return error.message;
  return MESSAGES.authFailed;
}
