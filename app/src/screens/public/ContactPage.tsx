import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { CONTACT_FORM_RESET_DELAY_MS } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { MailIcon } from '../../components/icons';
import { TextAreaField, TextField } from '../../components/TextField';
import { StaticPage } from './StaticPage';
import { contactMailto, openMailClient, SUPPORT_EMAIL } from './support-contact';
import type { ContactMessage } from './support-contact';

const EMPTY_MESSAGE: ContactMessage = { name: '', email: '', subject: '', message: '' };

const MISSING: Record<keyof ContactMessage, string> = {
  name: 'Please enter your name',
  email: 'Please enter your email address',
  subject: 'Please enter a subject',
  message: 'Please write your message',
};

type FieldErrors = Partial<Record<keyof ContactMessage, string>>;

export interface ContactPageProps {
  /** How the prefilled `mailto:` link is opened; the browser's own navigation unless a test says otherwise. */
  openMail?: (href: string) => void;
}

export function ContactPage({ openMail = openMailClient }: ContactPageProps) {
  const [fields, setFields] = useState<ContactMessage>(EMPTY_MESSAGE);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [handOffs, setHandOffs] = useState(0);

  // Spec section 2: the form clears itself a moment after the mail client took over the message.
  useEffect(() => {
    if (handOffs === 0) return;
    const timer = setTimeout(() => setFields(EMPTY_MESSAGE), CONTACT_FORM_RESET_DELAY_MS);
    return () => clearTimeout(timer);
  }, [handOffs]);

  function update(field: keyof ContactMessage, value: string) {
    setFields((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // `required` already stops empty fields; this also catches fields holding only spaces.
    const missing: FieldErrors = {};
    for (const field of Object.keys(MISSING) as (keyof ContactMessage)[]) {
      if (!fields[field].trim()) missing[field] = MISSING[field];
    }
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    openMail(contactMailto(fields));
    setHandOffs((count) => count + 1);
  }

  return (
    <StaticPage
      eyebrow="Contact"
      title="Get in touch"
      lead="Questions, bug reports, feature ideas or a kind word — every message is read by the people who build Lectern."
    >
      <div className="contact-layout">
        <form className="card card--padded form-stack" onSubmit={send} aria-label="Contact form">
          <div className="form-row">
            <TextField
              label="Name"
              name="name"
              autoComplete="name"
              required
              value={fields.name}
              error={errors.name}
              onChange={(event) => update('name', event.target.value)}
            />
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              value={fields.email}
              error={errors.email}
              onChange={(event) => update('email', event.target.value)}
            />
          </div>
          <TextField
            label="Subject"
            name="subject"
            required
            value={fields.subject}
            error={errors.subject}
            onChange={(event) => update('subject', event.target.value)}
          />
          <TextAreaField
            label="Message"
            name="message"
            required
            rows={7}
            hint="For a problem, tell us your browser and device, what you did and what happened — and the article’s address if it is about one."
            value={fields.message}
            error={errors.message}
            onChange={(event) => update('message', event.target.value)}
          />
          <p className="form-note">All fields are required.</p>
          <div className="form-actions">
            <Button type="submit" size="lg">
              <MailIcon size={18} />
              Send message
            </Button>
          </div>
          {handOffs > 0 && (
            <p className="form-alert form-alert--success" role="status">
              Your mail app should now open with the message ready to send. If nothing happened, write to us
              at {SUPPORT_EMAIL}.
            </p>
          )}
        </form>

        <aside className="contact-aside" aria-label="Other ways to get help">
          <div className="contact-aside__block">
            <h2>We reply within 24-48 hours</h2>
            <p>
              Messages go straight to our inbox and we answer every one within 24-48 hours, usually sooner on
              weekdays.
            </p>
          </div>
          <div className="contact-aside__block">
            <h2>Email us directly</h2>
            <p>
              <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
            </p>
          </div>
          <div className="contact-aside__block">
            <h2>Looking for a quick answer?</h2>
            <p>
              The <Link to="/faq">FAQ</Link> covers the common questions, and the{' '}
              <Link to="/help">Help center</Link> has step-by-step guides and troubleshooting.
            </p>
          </div>
        </aside>
      </div>
    </StaticPage>
  );
}
