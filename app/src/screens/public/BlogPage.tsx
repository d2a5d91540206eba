import { Link } from 'react-router-dom';
import { ANALYTICS_TOP_TAGS, HIGHLIGHT_MIN_LENGTH, PRODUCT_NAME } from '@lectern/shared-schema';
import { buttonClassName } from '../../components/Button';

const POST = {
  title: 'From saved to read: a practical guide to Lectern',
  dek: 'Saving an article takes two seconds. Actually reading it is the hard part. Here is a simple routine that turns a pile of links into a library you use — online or off.',
  author: 'The Lectern team',
  published: '2026-11-16',
  readingMinutes: 7,
};

export function BlogPage() {
  const publishedLabel = new Date(`${POST.published}T12:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  return (
    <>
      <title>{`Blog · ${PRODUCT_NAME}`}</title>
      <div className="container blog">
        <p className="eyebrow">{PRODUCT_NAME} Blog · Guide</p>
        <article className="blog-post" aria-labelledby="post-title">
          <header className="blog-post__header">
            <h1 id="post-title" className="blog-post__title">
              {POST.title}
            </h1>
            <p className="blog-post__dek">{POST.dek}</p>
            <p className="blog-post__byline">
              <span>{POST.author}</span>
              <span aria-hidden="true">·</span>
              <time dateTime={POST.published}>{publishedLabel}</time>
              <span aria-hidden="true">·</span>
              <span>{POST.readingMinutes} min read</span>
            </p>
          </header>

          <div className="prose prose--reading">
            <p>
              Most of us are excellent at saving things. A link in a chat, a newsletter worth a second look, a
              long essay someone recommended — into the pile it goes. The trouble is the pile. Without a
              routine, “read later” quietly becomes “read never”.
            </p>
            <p>
              This guide is the routine we use ourselves. It takes a few minutes to set up and works whether
              you read on a laptop at your desk or on a phone with no signal.
            </p>

            <h2>1. Capture in seconds, wherever you are</h2>
            <p>
              The easier saving is, the more honest your library becomes. On a computer, keep Lectern open in
              a pinned tab and paste links into the save field at the top of My Articles. Add tags in the same
              step, separated by commas, and you are done.
            </p>
            <p>
              On your phone, install Lectern from the browser menu (“Install app” or “Add to Home screen”). On
              Android it then appears in the share sheet: tap Share in any browser or app, pick Lectern, and
              the page is saved. For things that have no link at all — a passage in an e-book app, a
              newsletter that only lives in your inbox — take a screenshot and save it. Lectern recognises the
              text in the image, so you can read, search and highlight it like any other article.
            </p>
            <aside className="tip">
              <strong>Tip:</strong> save even when you are offline. The article appears immediately as a
              placeholder and fills in with the full text once you reconnect.
            </aside>

            <h2>2. Tag lightly, and only at the moment of saving</h2>
            <p>
              Elaborate folder systems collapse under their own weight. Two or three broad tags are plenty:
              something like <em>work</em>, <em>long reads</em> and <em>to share</em>. Add them when you save,
              while you still remember why the article caught your eye. The tags sidebar on My Articles shows
              how many articles each tag holds; one click filters the list and Clear brings everything back.
              Open Analytics now and then to see your {ANALYTICS_TOP_TAGS} most-used tags — it is a
              surprisingly honest picture of what you actually care about.
            </p>

            <h2>3. Give your reading a time and a place</h2>
            <p>
              Pick a slot you already have — the commute, the first coffee, the half hour before bed — and
              read from the <strong>Unread</strong> tab. It is your queue. If the backlog feels heavy, sort by
              Oldest First and give yourself permission to archive what no longer interests you. Archiving is
              not failure; it is editing.
            </p>
            <p>
              Opening an article marks it as read, and the reading streak in Analytics counts the consecutive
              days on which you read something. Today counts as soon as you finish an article, and the streak
              only resets once a whole day has passed without reading — so there is always time to keep it
              going.
            </p>

            <h2>4. Read with a highlighter in hand</h2>
            <p>
              Highlighting is how reading turns into remembering. In an article, switch on highlight mode and
              select any passage of at least {HIGHLIGHT_MIN_LENGTH} characters; confirm the preview and it is
              marked in yellow. Every highlight lands on the Highlights page, searchable and linked back to
              its article. Once a week, skim that page for five minutes. You will be amazed how much sticks.
            </p>
            <p>
              When an article is a keeper, mark it as a favourite. Favorites are one click away on My
              Articles, long after the rest has been archived.
            </p>

            <h2>5. Take your library offline before you need it</h2>
            <p>
              Lectern keeps your whole library on your device, so there is no “download for offline” button to
              forget. Just open the app while you are online before a flight or a long train ride and let it
              sync. Then read, highlight, tag and archive as usual. The app shows that you are offline and how
              many changes are waiting; they go to the server, in order, when you reconnect.
            </p>
            <p>
              If a link you saved offline turns out to be unreachable, Lectern tells you on the article’s card
              and lets you retry or delete it. Nothing vanishes silently.
            </p>

            <h2>6. Share what deserves sharing</h2>
            <p>
              Reading lists are for the articles you would recommend to someone: onboarding reading for a new
              teammate, the best pieces on a topic, a weekend selection for a friend. Create a list, add
              articles, and copy its public link. Whoever opens it sees the list’s name and description, your
              username and the articles — and nothing else from your library. Switch a list to private and its
              link stops working.
            </p>

            <h2>7. Keep it yours</h2>
            <p>
              Every so often, export your library from your profile. You get one readable JSON file with your
              articles, tags, highlights and lists — a backup you control, and a way to take your reading
              elsewhere if you ever want to.
            </p>

            <h2>Start small</h2>
            <p>
              Save three articles today, tag them, and read one tonight. That is the whole habit. The rest —
              lists, streaks, a searchable archive of everything you found worth remembering — grows from
              there.
            </p>
          </div>

          <footer className="blog-post__footer">
            <p>Questions about any of this? The Help center has step-by-step guides for every feature.</p>
            <div className="callout__actions">
              <Link to="/help" className={buttonClassName({ variant: 'secondary' })}>
                Open Help
              </Link>
              <Link to="/login" className={buttonClassName()}>
                Start reading with Lectern
              </Link>
            </div>
          </footer>
        </article>
      </div>
    </>
  );
}
