import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { googleSignInErrorMessage, MESSAGES } from '@lectern/shared-schema';
import { GoogleSignInError } from '../../data';
import { LoadingScreen } from '../../session/LoadingScreen';
import { SignInCancelledError, useSession } from '../../session/use-session';

/** The fixed text /login shows for a Google sign-in that didn't finish; never text taken from the URL. */
function failureText(error: unknown): string {
  if (error instanceof GoogleSignInError || error instanceof SignInCancelledError) return error.message;
  return googleSignInErrorMessage(null);
}

/**
 * /auth/callback (spec section 2): 'Logging you in...'. An error code goes to /login with its fixed text;
 * a code is traded, with this tab's nonce, for the token, the user loaded, then /; with neither, /login.
 */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const { finishGoogleSignIn } = useSession();
  const navigate = useNavigate();
  const handled = useRef(false);
  const code = params.get('code');
  const error = params.get('error');

  useEffect(() => {
    // StrictMode runs effects twice in development; a code can be traded once only.
    if (handled.current) return;
    handled.current = true;
    const toLogin = (authError: string | null) =>
      navigate('/login', { replace: true, state: authError ? { authError } : null });
    if (error !== null) {
      toLogin(googleSignInErrorMessage(error));
      return;
    }
    if (!code) {
      toLogin(null);
      return;
    }
    finishGoogleSignIn(code).then(
      () => navigate('/', { replace: true }),
      (failure: unknown) => toLogin(failureText(failure)),
    );
  }, [code, error, finishGoogleSignIn, navigate]);

  return <LoadingScreen message={MESSAGES.loggingIn} />;
}
