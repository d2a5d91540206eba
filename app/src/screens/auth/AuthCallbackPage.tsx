import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '@lectern/shared-schema';
import { LoadingScreen } from '../../session/LoadingScreen';
import { useSession } from '../../session/use-session';

/**
 * /auth/callback (spec section 2): an error goes to /login; a token is stored, the user loaded, then /;
 * with neither, /login.
 */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const { acceptToken } = useSession();
  const navigate = useNavigate();
  const handled = useRef(false);
  const token = params.get('token');
  const error = params.get('error');

  useEffect(() => {
    // StrictMode runs effects twice in development; the token must be accepted once.
    if (handled.current) return;
    handled.current = true;
    if (error !== null || !token) {
      navigate('/login', { replace: true, state: error ? { authError: error } : null });
      return;
    }
    acceptToken(token).then(
      () => navigate('/', { replace: true }),
      () => navigate('/login', { replace: true }),
    );
  }, [acceptToken, error, navigate, token]);

  return <LoadingScreen message={MESSAGES.loggingIn} />;
}
