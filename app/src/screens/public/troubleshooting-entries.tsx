import { Link } from 'react-router-dom';
import { MESSAGES, PASSWORD_MIN_LENGTH, SERVER_ERRORS } from '@lectern/shared-schema';
import type { AccordionItem } from '../../components/Accordion';

/** Problems people actually run into, titled with the message they see where there is one. */
export const TROUBLESHOOTING_ENTRIES: readonly AccordionItem[] = [
  {
    id: 'cannot-fetch',
    title: `“${MESSAGES.saveNotFound}”`,
    content: (
      <p>
        Our server could not load that page: the address may have a typo, the site may be down, or it may
        refuse automated visitors. Open the link in your browser to check it works, then try again. If the
        site blocks us, save a screenshot of the article instead.
      </p>
    ),
  },
  {
    id: 'no-content',
    title: `“${MESSAGES.noContent}”`,
    content: (
      <p>
        The page was saved, but its text couldn’t be separated from the rest of the page — common for
        paywalled articles, pages built entirely with scripts and things that aren’t articles (videos, shops,
        home pages). The summary and a link to the original are still there; a screenshot of the text gives
        you a readable, searchable copy.
      </p>
    ),
  },
  {
    id: 'not-syncing',
    title: 'My changes are not reaching my other devices',
    content: (
      <p>
        Check the sync indicator: if it says you are offline or shows changes waiting, they will be sent as
        soon as the connection is back. If you were signed out, sign in again with the same account — waiting
        changes are kept and sent after you sign in. Your other device picks them up the next time it is
        online with Lectern open.
      </p>
    ),
  },
  {
    id: 'cannot-sign-in',
    title: 'I can’t sign in',
    content: (
      <>
        <p>
          Check the email address and that your password has at least {PASSWORD_MIN_LENGTH} characters. After
          several failed attempts you will see “{SERVER_ERRORS.tooManyLogins}” — wait a few minutes before
          trying again.
        </p>
        <p>
          If Google sign-in reports “{SERVER_ERRORS.googleNotConfigured}”, this Lectern server doesn’t offer
          Google accounts; sign up with your email address instead.
        </p>
      </>
    ),
  },
  {
    id: 'offline-start',
    title: 'Lectern doesn’t open without a connection',
    content: (
      <p>
        The app has to be opened once while online on each device and browser so it can store itself and your
        library. After that it starts offline. Private or incognito windows forget everything when closed, so
        use a normal window.
      </p>
    ),
  },
  {
    id: 'share-sheet',
    title: 'Lectern is missing from my phone’s share sheet',
    content: (
      <p>
        Sharing into Lectern needs the installed app: open Lectern in Chrome on Android and choose “Install
        app” or “Add to Home screen”. iPhones and iPads don’t let web apps receive shares yet; copy the link
        and paste it into the save field instead.
      </p>
    ),
  },
  {
    id: 'ocr-quality',
    title: 'The text of my screenshot has mistakes',
    content: (
      <p>
        Text recognition works best on sharp, straight, high-contrast English text. Crop away status bars,
        keyboards and images before saving, and avoid photos taken at an angle.
      </p>
    ),
  },
  {
    id: 'still-stuck',
    title: 'None of this helped',
    content: (
      <p>
        <Link to="/contact">Contact us</Link> with your browser, device and what you did just before the
        problem. We reply within 24-48 hours.
      </p>
    ),
  },
];
