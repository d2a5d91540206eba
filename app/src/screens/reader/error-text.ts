import { ApiError } from '../../data';

/** The server's own error text when there is one (spec section 8), else the screen's fallback. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}
