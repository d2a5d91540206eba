import { Link } from 'react-router-dom';
import { Accordion } from '../../components/Accordion';
import { BookmarkletOffer } from '../bookmarklet/BookmarkletOffer';
import { ShortcutList } from '../../components/ShortcutList';
import { HELP_GUIDES } from './help-guides';
import type { NewsletterFormProps } from './NewsletterForm';
import { NewsletterForm } from './NewsletterForm';
import { StaticPage } from './StaticPage';
import { TROUBLESHOOTING_ENTRIES } from './troubleshooting-entries';

const SECTIONS = [
  { id: 'quick-start', label: 'Quick start' },
  { id: 'guides', label: 'Feature guides' },
  { id: 'save-anywhere', label: 'Save from any page' },
  { id: 'shortcuts', label: 'Keyboard shortcuts' },
  { id: 'newsletter', label: 'Product updates' },
  { id: 'troubleshooting', label: 'Troubleshooting' },
] as const;

export type HelpPageProps = NewsletterFormProps;

export function HelpPage({ openMail }: HelpPageProps) {
  return (
    <StaticPage
      eyebrow="Help center"
      title="How to get the most out of Lectern"
      lead="Start with the four-step quick start, dip into a feature guide when you need it, and check troubleshooting if something looks wrong."
    >
      <div className="help-layout">
        <nav className="help-toc" aria-label="On this page">
          <p className="help-toc__title">On this page</p>
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.label}</a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="help-content">
          <section id="quick-start" className="help-section" aria-labelledby="quick-start-title">
            <h2 id="quick-start-title">Quick start</h2>
            <ol className="steps">
              <li>
                <h3>Create your account</h3>
                <p>
                  <Link to="/login">Sign up</Link> with an email address and a password, or continue with
                  Google. You land on My Articles, your library.
                </p>
              </li>
              <li>
                <h3>Save your first article</h3>
                <p>
                  Paste a link into the save field, add a tag or two separated by commas, and press Save. The
                  article appears at the top of your list with its title, image and reading time.
                </p>
              </li>
              <li>
                <h3>Read and highlight</h3>
                <p>
                  Open the card to read it in the clean view. Switch on highlight mode and select a passage to
                  keep it on your Highlights page.
                </p>
              </li>
              <li>
                <h3>Install it and take it offline</h3>
                <p>
                  Install Lectern from your browser’s menu. It then opens like an app, works without a
                  connection and, on Android, receives links from the share sheet.
                </p>
              </li>
            </ol>
          </section>

          <section id="guides" className="help-section" aria-labelledby="guides-title">
            <h2 id="guides-title">Feature guides</h2>
            <div className="guide-grid">
              {HELP_GUIDES.map((guide) => (
                <section key={guide.id} className="card guide-card" aria-labelledby={guide.id}>
                  <h3 id={guide.id}>{guide.title}</h3>
                  {guide.body}
                </section>
              ))}
            </div>
          </section>

          <section id="save-anywhere" className="help-section" aria-labelledby="save-anywhere-title">
            <h2 id="save-anywhere-title">Save from any page</h2>
            <p className="help-section__intro">
              The Save to Lectern bookmarklet works in every desktop browser with nothing to install. It sends
              the page as your browser shows it, so pages built by JavaScript or behind your own sign-in are
              saved whole. Sign in to Lectern in this browser first.
            </p>
            <div className="card card--padded">
              <BookmarkletOffer />
            </div>
          </section>

          <section id="shortcuts" className="help-section" aria-labelledby="shortcuts-title">
            <h2 id="shortcuts-title">Keyboard shortcuts</h2>
            <p className="help-section__intro">
              On My Articles, press a key while you are not typing in a field:
            </p>
            <div className="card shortcut-card">
              <ShortcutList />
            </div>
          </section>

          <section id="newsletter" className="help-section newsletter" aria-labelledby="newsletter-title">
            <div>
              <h2 id="newsletter-title">Get product updates</h2>
              <p>
                A short email when something worth knowing ships — new features, important fixes, and the end
                of the beta. No more than once a month. Submitting opens your mail app with the request ready
                to send.
              </p>
            </div>
            <NewsletterForm openMail={openMail} />
          </section>

          <section id="troubleshooting" className="help-section" aria-labelledby="troubleshooting-title">
            <h2 id="troubleshooting-title">Troubleshooting</h2>
            <Accordion items={TROUBLESHOOTING_ENTRIES} headingLevel={3} />
          </section>
        </div>
      </div>
    </StaticPage>
  );
}
