import { useState } from 'react';
import type { FormEvent, MouseEvent } from 'react';
import { isFilledIn, MESSAGES, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@lectern/shared-schema';
import { Button, buttonClassName } from '../../components/Button';
import { TextField } from '../../components/TextField';

export type AuthMode = 'signin' | 'signup';

export interface AuthCredentials {
  email: string;
  password: string;
  /** Only on sign-up. */
  username?: string;
}

export interface AuthCardProps {
  /** Signs in or up; a rejection's message is shown when no `error` is given. */
  onSubmit: (mode: AuthMode, credentials: AuthCredentials) => Promise<void>;
  /** Where "Continue with Google" goes: a full-page navigation, not a client-side route. */
  googleHref: string;
  /** A click on "Continue with Google" (the session adds this tab's one-time nonce and navigates). */
  onGoogle?: (event: MouseEvent<HTMLAnchorElement>) => void;
  /** The failure text of spec section 8, worded by the caller. */
  error?: string | null;
}

const COPY: Record<AuthMode, { title: string; subtitle: string; submit: string }> = {
  signin: { title: 'Welcome back', subtitle: 'Sign in to open your library.', submit: 'Sign In' },
  signup: {
    title: 'Create your account',
    subtitle: 'Free while Lectern is in beta. No card, no trial.',
    submit: 'Create Account',
  },
};

/** The sign-in and sign-up card of /login, with the toggle between the two modes. */
export function AuthCard({ onSubmit, googleHref, onGoogle, error }: AuthCardProps) {
  const [mode, setMode] = useState<AuthMode>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [username, setUsername] = useState('');
  const [usernameError, setUsernameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const copy = COPY[mode];
  const shownError = error ?? failure;

  function switchTo(next: AuthMode) {
    setMode(next);
    setFailure(null);
    setUsernameError(null);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mode === 'signup' && !isFilledIn(username)) {
      setUsernameError('Please choose a username');
      return;
    }
    setFailure(null);
    setSubmitting(true);
    try {
      await onSubmit(
        mode,
        mode === 'signup' ? { email, password, username: username.trim() } : { email, password },
      );
    } catch (caught) {
      setFailure(caught instanceof Error && caught.message ? caught.message : MESSAGES.authFailed);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <section className="card card--raised auth-card" aria-labelledby="auth-title">
      <div className="segmented" role="group" aria-label="Sign in or create an account">
        <button
          type="button"
          className="segmented__option"
          aria-pressed={mode === 'signin'}
          onClick={() => switchTo('signin')}
        >
          Sign In
        </button>
        <button
          type="button"
          className="segmented__option"
          aria-pressed={mode === 'signup'}
          onClick={() => switchTo('signup')}
        >
          Sign Up
        </button>
      </div>

      <header className="auth-card__header">
        <h2 id="auth-title">{copy.title}</h2>
        <p>{copy.subtitle}</p>
      </header>

      <a
        href={googleHref}
        onClick={onGoogle}
        className={buttonClassName({ variant: 'secondary', block: true })}
      >
        <GoogleLogo />
        Continue with Google
      </a>

      <p className="divider">
        <span>or use your email</span>
      </p>

      <form className="form-stack" onSubmit={submit}>
        {shownError && (
          <p className="form-alert form-alert--error" role="alert">
            {shownError}
          </p>
        )}
        {mode === 'signup' && (
          <TextField
            label="Username"
            name="username"
            autoComplete="nickname"
            required
            maxLength={USERNAME_MAX_LENGTH}
            value={username}
            error={usernameError}
            onChange={(event) => {
              setUsername(event.target.value);
              setUsernameError(null);
            }}
          />
        )}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
          required
          minLength={PASSWORD_MIN_LENGTH}
          hint={mode === 'signup' ? `At least ${PASSWORD_MIN_LENGTH} characters.` : undefined}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button type="submit" size="lg" block busy={submitting}>
          {copy.submit}
        </Button>
      </form>

      <p className="auth-card__switch">
        {mode === 'signin' ? 'New to Lectern?' : 'Already have an account?'}{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => switchTo(mode === 'signin' ? 'signup' : 'signin')}
        >
          {mode === 'signin' ? 'Create an account' : 'Sign in'}
        </button>
      </p>
    </section>
  );
}

function GoogleLogo() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5Z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7Z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44Z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5Z"
      />
    </svg>
  );
}
