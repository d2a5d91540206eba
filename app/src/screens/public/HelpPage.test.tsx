// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { HelpPage } from './HelpPage';
import { SUPPORT_EMAIL } from './support-contact';

function renderHelp() {
  const opened: string[] = [];
  render(
    <MemoryRouter initialEntries={['/help']}>
      <HelpPage openMail={(href) => opened.push(href)} />
    </MemoryRouter>,
  );
  return opened;
}

describe('HelpPage', () => {
  afterEach(cleanup);

  it('has the quick start, feature guides, shortcuts, update signup and troubleshooting sections', () => {
    renderHelp();
    for (const name of [
      'Quick start',
      'Feature guides',
      'Keyboard shortcuts',
      'Get product updates',
      'Troubleshooting',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeTruthy();
    }
  });

  it('lists the four shortcuts: S save, / search, Esc close, ? show shortcuts', () => {
    renderHelp();
    const shortcuts = document.getElementById('shortcuts')!;
    const rows = [...shortcuts.querySelectorAll('.shortcut-list__row')].map((row) => [
      row.querySelector('kbd')!.textContent,
      row.querySelector('dd')!.textContent,
    ]);
    expect(rows.map(([key]) => key)).toEqual(['S', '/', 'Esc', '?']);
    expect(rows[0]![1]).toMatch(/^Save/);
    expect(rows[1]![1]).toMatch(/^Search/);
    expect(rows[2]![1]).toMatch(/^Close/);
    expect(rows[3]![1]).toMatch(/shortcuts/);
  });

  it('signs up for updates from the #newsletter section by opening the mail client', () => {
    const opened = renderHelp();
    const newsletter = document.getElementById('newsletter')!;
    const email = within(newsletter).getByLabelText<HTMLInputElement>('Email address');
    expect(email.type).toBe('email');
    expect(email.required).toBe(true);

    fireEvent.change(email, { target: { value: 'reader@example.com' } });
    fireEvent.submit(within(newsletter).getByRole('form', { name: 'Sign up for product updates' }));
    expect(opened).toHaveLength(1);
    expect(opened[0]!.startsWith(`mailto:${SUPPORT_EMAIL}?`)).toBe(true);
    expect(new URL(opened[0]!).searchParams.get('body')).toContain('reader@example.com');
    expect(within(newsletter).getByRole('status').textContent).toContain('mail app');
  });
});
