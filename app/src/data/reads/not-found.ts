// A local read of an id the device doesn't have answers like the server: a 404 with the server's text.
import { ApiError } from '../api/http-client';

export function notFound(message: string): ApiError {
  return new ApiError(404, message);
}
