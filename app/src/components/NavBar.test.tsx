// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NavBar } from './NavBar';
import type { NavBarProps } from './NavBar';

function renderNavBar(props: NavBarProps, path = '/') {
  render(
    <MemoryRouter initialEntries={[path]}>
      <NavBar {...props} />
    </MemoryRouter>,
  );
}

function menuLinks(): [string | null, string | null][] {
  const menu = screen.getByRole('navigation', { name: 'Main' });
  return [...menu.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
}

describe('NavBar', () => {
  afterEach(cleanup);

  it('links Articles, Highlights and Lists inside the app, marking the current one', () => {
    renderNavBar({ variant: 'app' }, '/highlights');
    expect(menuLinks()).toEqual([
      ['Articles', '/'],
      ['Highlights', '/highlights'],
      ['Lists', '/lists'],
    ]);
    expect(screen.getByRole('link', { name: 'Highlights' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Articles' }).getAttribute('aria-current')).toBeNull();
  });

  it('links the five information pages on static pages', () => {
    renderNavBar({ variant: 'static' }, '/faq');
    expect(menuLinks().map(([label]) => label)).toEqual(['About', 'FAQ', 'Contact', 'Blog', 'Help']);
  });

  it('shows the username with the avatar and a Logout button that calls onLogout', () => {
    const onLogout = vi.fn();
    renderNavBar({
      variant: 'app',
      user: { username: 'ada', email: 'ada@example.com', avatarUrl: 'https://example.com/ada.png' },
      onLogout,
    });
    expect(screen.getByText('ada')).toBeTruthy();
    expect(document.querySelector('img.avatar')?.getAttribute('src')).toBe('https://example.com/ada.png');
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('link', { name: 'Sign In' })).toBeNull();
  });

  it('falls back to the email and an initial when there is no username or avatar', () => {
    renderNavBar({
      variant: 'static',
      user: { username: null, email: 'grace@example.com', avatarUrl: null },
    });
    expect(screen.getByText('grace@example.com')).toBeTruthy();
    expect(document.querySelector('.avatar')?.textContent).toBe('G');
  });

  it('replaces an avatar image that fails to load with the initial', () => {
    renderNavBar({
      variant: 'app',
      user: { username: 'bo', email: 'bo@example.com', avatarUrl: '/broken.png' },
    });
    fireEvent.error(document.querySelector('img.avatar')!);
    expect(document.querySelector('img.avatar')).toBeNull();
    expect(document.querySelector('.avatar')?.textContent).toBe('B');
  });

  it('offers Sign In when signed out, except on /login itself', () => {
    renderNavBar({ variant: 'static' }, '/about');
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    cleanup();
    renderNavBar({ variant: 'static' }, '/login');
    expect(screen.queryByRole('link', { name: 'Sign In' })).toBeNull();
  });

  it('calls onBrandClick when the brand is clicked, which also leads to /', () => {
    const onBrandClick = vi.fn();
    renderNavBar({ variant: 'app', onBrandClick });
    const brand = screen.getByRole('link', { name: /Lectern/ });
    expect(brand.getAttribute('href')).toBe('/');
    fireEvent.click(brand);
    expect(onBrandClick).toHaveBeenCalledTimes(1);
  });
});
