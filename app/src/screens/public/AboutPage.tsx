import { Link } from 'react-router-dom';
import { buttonClassName } from '../../components/Button';
import { StaticPage } from './StaticPage';

export function AboutPage() {
  return (
    <StaticPage
      eyebrow="About Lectern"
      title="A quiet place for everything you mean to read"
      lead="Lectern is a read-it-later app for people who save more than they can read today. It keeps the article, drops the clutter, and stays with you when the connection doesn’t."
    >
      <div className="about-layout">
        <section className="prose" aria-labelledby="about-why">
          <h2 id="about-why">Why Lectern exists</h2>
          <p>
            Good writing rarely arrives at a convenient moment. It turns up in a group chat during a meeting,
            in a newsletter at breakfast, in a screenshot a friend sends at midnight. Browser tabs pile up,
            bookmarks get forgotten, and the piece you were sure you would come back to is gone.
          </p>
          <p>
            Lectern gives those pieces one calm home. Save a link or a screenshot in a couple of seconds, and
            read it later in a clean view with the page’s navigation, pop-ups and ads stripped away. Mark the
            passages that matter, tag what you keep, and put the best of it into reading lists worth sharing.
          </p>

          <h2 id="about-how">How it works</h2>
          <p>
            Lectern is <strong>offline-first</strong>. Your library is stored on your device, so opening an
            article, searching or changing a tag happens immediately — on a train, on a plane, or on café
            Wi-Fi that comes and goes. Whatever you do while offline waits in a queue on the device and is
            sent to our server the next time you are online; the app shows how many changes are still waiting,
            so you always know where you stand.
          </p>
          <p>
            When you save a link, our server fetches the page, extracts the readable article — title, author,
            date, images and text — estimates the reading time and sends the result to every device you are
            signed in on. Screenshots go through text recognition (OCR) on our server, so the words in the
            image become searchable text. If a page can’t be fetched, the save is not silently dropped: it
            stays on your device with the reason and a choice to retry or delete it.
          </p>

          <h2 id="about-principles">What we care about</h2>
          <ul>
            <li>
              <strong>Calm.</strong> No feeds, no recommendations, no badges begging for attention. Lectern
              shows you what you chose to save and gets out of the way.
            </li>
            <li>
              <strong>Privacy.</strong> Your library is private to your account. Nothing is shown to anyone
              else unless you make a reading list public, and even then only that list — its name,
              description, your username and the articles in it — is visible, never your email address, your
              other articles or your highlights.
            </li>
            <li>
              <strong>Ownership.</strong> You can export everything you have saved as a single JSON file at
              any time from your profile, and deleting your account erases your articles, highlights, tags,
              lists and uploaded screenshots from our server.
            </li>
          </ul>

          <h2 id="about-beta">Free, and in beta</h2>
          <p>
            Lectern is free while it is in beta. Beta means some features will still change and a few rough
            edges remain; it does not mean your library is at risk. If something breaks or feels wrong, we
            genuinely want to hear about it — <Link to="/contact">write to us</Link> and a person will reply.
          </p>
        </section>

        <aside className="about-aside" aria-label="Get started">
          <div className="card card--padded about-aside__card">
            <h2 className="about-aside__title">Start your library</h2>
            <p>Create a free account with your email or Google, then save your first article in seconds.</p>
            <Link to="/login" className={buttonClassName({ block: true })}>
              Create a free account
            </Link>
            <Link to="/blog" className={buttonClassName({ variant: 'secondary', block: true })}>
              Read the guide
            </Link>
          </div>
          <dl className="about-facts">
            <div>
              <dt>Works on</dt>
              <dd>Any modern browser, desktop or phone — installable as an app</dd>
            </div>
            <div>
              <dt>Offline</dt>
              <dd>Read, search, tag and save without a connection</dd>
            </div>
            <div>
              <dt>Price</dt>
              <dd>Free during the beta</dd>
            </div>
          </dl>
        </aside>
      </div>
    </StaticPage>
  );
}
