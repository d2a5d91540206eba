import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Button } from '../../components/Button';
import { openMailClient, updatesSignupMailto } from './support-contact';

export interface NewsletterFormProps {
  /** How the prefilled `mailto:` link is opened; the browser's own navigation unless a test says otherwise. */
  openMail?: (href: string) => void;
}

/** The update-signup form of the Help page: the visitor's mail client sends the request. */
export function NewsletterForm({ openMail = openMailClient }: NewsletterFormProps) {
  const [email, setEmail] = useState('');
  const [handedOff, setHandedOff] = useState(false);
  const inputId = useId();

  function subscribe(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim()) return;
    openMail(updatesSignupMailto(email));
    setHandedOff(true);
  }

  return (
    <form className="newsletter-form" onSubmit={subscribe} aria-label="Sign up for product updates">
      <label className="field__label" htmlFor={inputId}>
        Email address
      </label>
      <div className="newsletter-form__row">
        <input
          id={inputId}
          className="input"
          type="email"
          name="email"
          autoComplete="email"
          placeholder="you@example.com"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button type="submit">Subscribe</Button>
      </div>
      {handedOff && (
        <p className="newsletter-form__status" role="status">
          Your mail app should now open with the request ready — just press send.
        </p>
      )}
    </form>
  );
}
