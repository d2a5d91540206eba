import { describe, expect, it } from 'vitest';
import { contactMailto, SUPPORT_EMAIL, updatesSignupMailto } from './support-contact';

describe('contactMailto', () => {
  it('encodes spaces as %20 (mail clients read "+" literally) and keeps line breaks', () => {
    const href = contactMailto({
      name: ' Grace ',
      email: 'grace@example.com',
      subject: 'Q & A + more',
      message: 'Line one\nLine two',
    });
    expect(href.startsWith(`mailto:${SUPPORT_EMAIL}?subject=`)).toBe(true);
    expect(href).not.toContain('+');
    expect(href).toContain('%20');
    const params = new URL(href).searchParams;
    expect(params.get('subject')).toBe('[Lectern] Q & A + more');
    expect(params.get('body')).toBe('Line one\nLine two\n\n— Grace <grace@example.com>');
  });
});

describe('updatesSignupMailto', () => {
  it('asks for updates to be sent to the given address', () => {
    const params = new URL(updatesSignupMailto(' reader@example.com ')).searchParams;
    expect(params.get('subject')).toBe('Subscribe to Lectern updates');
    expect(params.get('body')).toContain('reader@example.com.');
  });
});
