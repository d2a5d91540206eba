import { Link } from 'react-router-dom';
import {
  ANALYTICS_MONTHS,
  ANALYTICS_TOP_TAGS,
  DELETE_CONFIRM_PHRASE,
  exportFileName,
  HIGHLIGHT_MIN_LENGTH,
} from '@lectern/shared-schema';
import type { AccordionItem } from '../../components/Accordion';

/** The fifteen questions of the FAQ page (spec section 2), answered for this product. */
export const FAQ_ENTRIES: readonly AccordionItem[] = [
  {
    id: 'what-is-lectern',
    title: 'What is Lectern?',
    content: (
      <p>
        Lectern is a read-it-later app. You save articles you don’t have time for right now — by link or from
        a screenshot — and read them later in a clean, distraction-free view. Along the way you can highlight
        passages, tag articles, group them into reading lists, search everything and see simple statistics
        about your reading.
      </p>
    ),
  },
  {
    id: 'cost',
    title: 'Does Lectern cost anything?',
    content: (
      <p>
        No. Lectern is in beta and free. There are no ads and no paid tier today. If that ever changes, you
        will hear about it well in advance, and you can always export your library first.
      </p>
    ),
  },
  {
    id: 'save-article',
    title: 'How do I save an article?',
    content: (
      <>
        <p>
          Paste the article’s address into the save field at the top of <strong>My Articles</strong> and press
          Save. The address must start with <code>http://</code> or <code>https://</code>. You can add tags in
          the same step, separated by commas — for example <code>design, long reads</code>.
        </p>
        <p>
          On a phone, install Lectern (see “Can I install Lectern like an app?” below) and use your browser’s
          Share button: Lectern appears in the share sheet and saves the page you are looking at.
        </p>
      </>
    ),
  },
  {
    id: 'screenshots',
    title: 'Can I save a screenshot instead of a link?',
    content: (
      <p>
        Yes. Upload a PNG, JPEG or WebP image and Lectern runs text recognition (OCR) on it, so the words in
        the picture become the article’s text: you can read, search and highlight them like any other article.
        Recognition works best on sharp, straight screenshots of English text; crop away toolbars and
        keyboards for cleaner results.
      </p>
    ),
  },
  {
    id: 'privacy',
    title: 'Who can see my library, and what happens to my data?',
    content: (
      <>
        <p>
          Only you. Your articles, tags, highlights and private lists belong to your account and are never
          shown to other people; the one exception is a reading list you make public, and only that list.
          Lectern has no ads and no third-party trackers, and we don’t sell or share your data.
        </p>
        <p>
          To fetch an article, our server requests the page on your behalf, so the website sees our server
          rather than your device. Signing out wipes the copy of your library stored in that browser, which
          matters on shared computers; Lectern warns you first if changes are still waiting to sync.
        </p>
      </>
    ),
  },
  {
    id: 'offline',
    title: 'Does Lectern work offline?',
    content: (
      <p>
        Yes. Your library is stored on your device, so once an article has synced you can open it, read it,
        search, tag, highlight, archive and favourite it with no connection at all. The app itself is cached
        too: you can start Lectern offline after you have used it once on that device.
      </p>
    ),
  },
  {
    id: 'offline-changes',
    title: 'What happens to things I save or change while offline?',
    content: (
      <p>
        They are kept on your device in a queue and sent to the server, in order, as soon as you are back
        online. The app shows whether you are online and how many changes are still waiting. A link you saved
        offline appears right away as a placeholder and fills in with the full article once the server has
        fetched it. If the server can’t fetch it, the article stays on your device with the reason and two
        choices: Retry or Delete. Nothing disappears without you seeing why.
      </p>
    ),
  },
  {
    id: 'highlights',
    title: 'How do highlights work?',
    content: (
      <p>
        Open an article, switch on highlight mode with the highlighter button, and select a passage of at
        least {HIGHLIGHT_MIN_LENGTH} characters. Lectern shows a preview; confirm it and the passage is marked
        in yellow. All your highlights are collected on the <strong>Highlights</strong> page, with statistics
        and a search, and each one links back to its article.
      </p>
    ),
  },
  {
    id: 'tags',
    title: 'How do tags and filters work?',
    content: (
      <p>
        Add tags when you save an article, separated by commas. Every tag appears in the sidebar of My
        Articles with the number of articles that carry it; click one to see only those articles, and click
        Clear to go back. The All, Unread and Read tabs and the Archived and Favorites buttons narrow the list
        further, and you can sort by newest, oldest or title.
      </p>
    ),
  },
  {
    id: 'lists',
    title: 'What are reading lists, and who can see a shared one?',
    content: (
      <p>
        A reading list is a named, ordered collection of your articles — “Onboarding reads for new teammates”,
        say. New lists are public by default: anyone with the list’s link can see its name, description, your
        username and the articles in it, and open each article on its original site. Make a list private and
        its link stops working. Your email address, your other articles and your highlights are never shown.
      </p>
    ),
  },
  {
    id: 'search',
    title: 'What does search look through?',
    content: (
      <p>
        Search on My Articles starts as you type and looks through titles, descriptions, the full text of
        articles and their tags. The Highlights page has its own search across everything you highlighted.
        Both run on your device, so they are instant and work offline.
      </p>
    ),
  },
  {
    id: 'analytics',
    title: 'What do the reading analytics show?',
    content: (
      <p>
        Open Analytics on My Articles to see your {ANALYTICS_TOP_TAGS} most-used tags, a chart of how many
        articles you saved in each of the last {ANALYTICS_MONTHS} months, how many you saved this month, and
        your reading streak: the number of consecutive days on which you read at least one article. A streak
        that doesn’t include today still counts if you read something yesterday, so you have until the end of
        the day to keep it.
      </p>
    ),
  },
  {
    id: 'export',
    title: 'Can I get my data out of Lectern?',
    content: (
      <p>
        Any time. On your profile, choose Export and Lectern downloads a file named like{' '}
        <code>{exportFileName(new Date())}</code> containing your articles, tags, highlights and reading
        lists. It is plain, readable JSON, so other tools and scripts can use it.
      </p>
    ),
  },
  {
    id: 'delete-account',
    title: 'How do I delete my account?',
    content: (
      <p>
        On your profile, choose Delete account and type <code>{DELETE_CONFIRM_PHRASE}</code> to confirm. Your
        account and everything in it — articles, highlights, tags, lists and uploaded screenshots — are erased
        from our server, you are signed out, and the copy on that device is wiped. Export first if you want to
        keep anything; deletion can’t be undone.
      </p>
    ),
  },
  {
    id: 'install',
    title: 'Can I install Lectern like an app?',
    content: (
      <p>
        Yes. Lectern is a progressive web app. In Chrome, Edge or Android browsers, choose “Install app” or
        “Add to Home screen” from the browser menu; on iPhone and iPad, use Share → Add to Home Screen in
        Safari. The installed app opens in its own window, works offline and, on Android, shows up in the
        share sheet. More answers are in the <Link to="/help">Help center</Link>.
      </p>
    ),
  },
];
