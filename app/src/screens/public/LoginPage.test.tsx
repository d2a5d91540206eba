// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES, PASSWORD_MIN_LENGTH } from '@lectern/shared-schema';
import type { AuthCredentials, AuthMode } from './AuthCard';
import { LoginPage } from './LoginPage';

type Call = [AuthMode, AuthCredentials];

function renderLogin(
  props: {
    error?: string | null;
    onSubmit?: (mode: AuthMode, credentials: AuthCredentials) => Promise<void>;
  } = {},
) {
  const calls: Call[] = [];
  const onSubmit =
    props.onSubmit ??
    ((mode: AuthMode, credentials: AuthCredentials) => {
      calls.push([mode, credentials]);
      return Promise.resolve();
    });
  render(
    <MemoryRouter initialEntries={['/login']}>
      <LoginPage onSubmit={onSubmit} googleHref="/api/auth/google" error={props.error} />
    </MemoryRouter>,
  );
  return calls;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => act(async () => void fireEvent.submit(screen.getByLabelText('Email').closest('form')!));

describe('LoginPage', () => {
  afterEach(cleanup);

  it('asks for a username only in sign-up mode', () => {
    renderLogin();
    expect(screen.queryByLabelText('Username')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign In', pressed: true })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByLabelText<HTMLInputElement>('Username').required).toBe(true);
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Sign In', pressed: false }));
    expect(screen.queryByLabelText('Username')).toBeNull();
  });

  it('lets the browser enforce the email and password rules', () => {
    renderLogin();
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    expect(email.type).toBe('email');
    expect(email.required).toBe(true);
    expect(password.type).toBe('password');
    expect(password.required).toBe(true);
    expect(password.minLength).toBe(PASSWORD_MIN_LENGTH);
  });

  it('signs in with email and password only', async () => {
    const calls = renderLogin();
    type('Email', 'ada@example.com');
    type('Password', 'correct horse');
    await submit();
    expect(calls).toEqual([['signin', { email: 'ada@example.com', password: 'correct horse' }]]);
  });

  it('signs up with a trimmed username', async () => {
    const calls = renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    type('Username', '  ada  ');
    type('Email', 'ada@example.com');
    type('Password', 'correct horse');
    await submit();
    expect(calls).toEqual([
      ['signup', { email: 'ada@example.com', password: 'correct horse', username: 'ada' }],
    ]);
  });

  it('does not sign up with a username of spaces', async () => {
    const calls = renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    type('Username', '   ');
    type('Email', 'ada@example.com');
    type('Password', 'correct horse');
    await submit();
    expect(calls).toEqual([]);
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows the error it is given as an alert', () => {
    renderLogin({ error: 'Invalid email or password' });
    expect(screen.getByRole('alert').textContent).toBe('Invalid email or password');
  });

  it('shows a failed submission, falling back to the generic text, and clears it on switching mode', async () => {
    renderLogin({ onSubmit: () => Promise.reject(new Error('')) });
    type('Email', 'ada@example.com');
    type('Password', 'correct horse');
    await submit();
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.authFailed);

    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('disables the submit button while signing in', async () => {
    let finish: () => void = () => {};
    renderLogin({ onSubmit: () => new Promise<void>((resolve) => (finish = resolve)) });
    type('Email', 'ada@example.com');
    type('Password', 'correct horse');
    await submit();
    const button = screen.getByRole('button', { name: 'Sign In', pressed: undefined, busy: true });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await act(async () => finish());
    expect(screen.queryByRole('button', { busy: true })).toBeNull();
  });

  it('continues with Google by a full-page link, and links the five information pages', () => {
    renderLogin();
    expect(screen.getByRole('link', { name: 'Continue with Google' }).getAttribute('href')).toBe(
      '/api/auth/google',
    );
    const menu = screen.getByRole('navigation', { name: 'Main' });
    const links = [...menu.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['About', '/about'],
      ['FAQ', '/faq'],
      ['Contact', '/contact'],
      ['Blog', '/blog'],
      ['Help', '/help'],
    ]);
  });

  it('has a marketing hero and a features showcase', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Save it now. Read it properly later.',
    );
    const showcase = screen.getByRole('region', {
      name: 'Everything a reader needs, nothing that distracts',
    });
    expect(showcase.querySelectorAll('.feature-card').length).toBeGreaterThanOrEqual(6);
  });
});
