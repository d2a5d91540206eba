import { describe, expect, it } from 'vitest';
import { MESSAGES, SERVER_ERRORS } from '@lectern/shared-schema';
import { ApiError, NetworkError } from '../data';
import { authErrorMessage } from './auth-error';

describe('authErrorMessage', () => {
  it("shows the server's error text", () => {
    expect(authErrorMessage(new ApiError(401, SERVER_ERRORS.invalidCredentials))).toBe(
      'Invalid email or password',
    );
  });

  it("falls back to 'Authentication failed' without one", () => {
    expect(authErrorMessage(new ApiError(500, null))).toBe(MESSAGES.authFailed);
    expect(authErrorMessage(new NetworkError())).toBe('Authentication failed');
  });
});
