// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTACT_FORM_RESET_DELAY_MS } from '@lectern/shared-schema';
import { ContactPage } from './ContactPage';
import { SUPPORT_EMAIL } from './support-contact';

function renderContact() {
  const opened: string[] = [];
  render(
    <MemoryRouter>
      <ContactPage openMail={(href) => opened.push(href)} />
    </MemoryRouter>,
  );
  return opened;
}

function field(label: string): HTMLInputElement | HTMLTextAreaElement {
  return screen.getByLabelText(label);
}

function fillIn(values: Record<'Name' | 'Email' | 'Subject' | 'Message', string>) {
  for (const [label, value] of Object.entries(values)) fireEvent.change(field(label), { target: { value } });
}

describe('ContactPage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('marks name, email, subject and message as required, with an email-type address field', () => {
    renderContact();
    for (const label of ['Name', 'Email', 'Subject', 'Message']) expect(field(label).required).toBe(true);
    expect(field('Email').type).toBe('email');
  });

  it('promises a reply within 24-48 hours', () => {
    renderContact();
    expect(document.body.textContent).toContain('24-48 hours');
  });

  it('opens the mail client with the message prefilled, then clears the form after the reset delay', () => {
    const opened = renderContact();
    fillIn({
      Name: 'Ada Lovelace',
      Email: 'ada@example.com',
      Subject: 'Sync question',
      Message: 'Does a list sync offline?',
    });
    fireEvent.submit(screen.getByRole('form', { name: 'Contact form' }));

    expect(opened).toHaveLength(1);
    const href = new URL(opened[0]!);
    expect(href.protocol).toBe('mailto:');
    expect(href.pathname).toBe(SUPPORT_EMAIL);
    expect(href.searchParams.get('subject')).toBe('[Lectern] Sync question');
    expect(href.searchParams.get('body')).toBe(
      'Does a list sync offline?\n\n— Ada Lovelace <ada@example.com>',
    );
    expect(screen.getByRole('status').textContent).toContain('mail app');

    act(() => {
      vi.advanceTimersByTime(CONTACT_FORM_RESET_DELAY_MS - 1);
    });
    expect(field('Name').value).toBe('Ada Lovelace');
    expect(field('Message').value).toBe('Does a list sync offline?');

    act(() => {
      vi.advanceTimersByTime(1);
    });
    for (const label of ['Name', 'Email', 'Subject', 'Message']) expect(field(label).value).toBe('');
  });

  it('refuses fields holding only spaces, names each one, and opens nothing', () => {
    const opened = renderContact();
    fillIn({ Name: '  ', Email: 'ada@example.com', Subject: ' ', Message: 'Hello' });
    fireEvent.submit(screen.getByRole('form', { name: 'Contact form' }));

    expect(opened).toEqual([]);
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field('Name').getAttribute('aria-describedby')!)?.textContent).toBe(
      'Please enter your name',
    );
    expect(field('Subject').getAttribute('aria-invalid')).toBe('true');
    expect(field('Email').getAttribute('aria-invalid')).toBeNull();

    fireEvent.change(field('Name'), { target: { value: 'Ada' } });
    expect(field('Name').getAttribute('aria-invalid')).toBeNull();
  });
});
