import type { MouseEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useLectern } from '../../session/use-lectern';
import { authErrorMessage } from '../../session/auth-error';
import { LoadingScreen } from '../../session/LoadingScreen';
import { useSession } from '../../session/use-session';
import { LoginPage } from '../public/LoginPage';
import type { AuthCredentials, AuthMode } from '../public/AuthCard';

/** /login wired to the session: signed-in visitors go to /, a successful sign-in or sign-up too. */
export function LoginRoute() {
  const { loading, isAuthenticated, login, register } = useSession();
  const lectern = useLectern();
  const navigate = useNavigate();
  const location = useLocation();
  const callbackError = callbackErrorOf(location.state);

  if (loading) return <LoadingScreen />;
  if (isAuthenticated) return <Navigate to="/" replace />;

  async function submit(mode: AuthMode, { email, password, username }: AuthCredentials) {
    // A Google sign-in error stays up until the visitor tries again; from then on this form's own shows.
    if (callbackError) navigate(location.pathname, { replace: true, state: null });
    try {
      if (mode === 'signup') await register({ email, password, username: username ?? '' });
      else await login({ email, password });
    } catch (error) {
      throw new Error(authErrorMessage(error), { cause: error });
    }
    navigate('/', { replace: true });
  }

  // The link's own address works without this; the click adds this tab's one-time nonce.
  function continueWithGoogle(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    window.location.assign(lectern.auth.startGoogleSignIn());
  }

  return (
    <LoginPage
      googleHref={lectern.auth.googleSignInUrl()}
      onGoogle={continueWithGoogle}
      onSubmit={submit}
      error={callbackError}
    />
  );
}

/** /auth/callback hands a Google sign-in error over in the navigation state. */
function callbackErrorOf(state: unknown): string | null {
  if (state && typeof state === 'object' && 'authError' in state && typeof state.authError === 'string')
    return state.authError;
  return null;
}
