import { PRODUCT_NAME } from '@lectern/shared-schema';

/** Where the contact and update-signup forms address their mail. */
export const SUPPORT_EMAIL = 'support@lectern.app';

export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** A `mailto:` link that opens the visitor's mail client with the contact form already written out. */
export function contactMailto({ name, email, subject, message }: ContactMessage): string {
  const body = `${message.trim()}\n\n— ${name.trim()} <${email.trim()}>`;
  return mailto(`[${PRODUCT_NAME}] ${subject.trim()}`, body);
}

/** A `mailto:` link asking to be put on the product-updates list. */
export function updatesSignupMailto(email: string): string {
  return mailto(
    `Subscribe to ${PRODUCT_NAME} updates`,
    `Please send ${PRODUCT_NAME} product updates to ${email.trim()}.\n\nI can unsubscribe at any time by replying to any update.`,
  );
}

function mailto(subject: string, body: string): string {
  // encodeURIComponent, not URLSearchParams: mail clients read '+' literally, not as a space.
  return `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/** Hands a `mailto:` link to the browser, which passes it to the visitor's mail client. */
export function openMailClient(href: string): void {
  window.location.href = href;
}
