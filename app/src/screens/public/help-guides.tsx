import type { ReactNode } from 'react';
import {
  ANALYTICS_MONTHS,
  ANALYTICS_TOP_TAGS,
  DELETE_CONFIRM_PHRASE,
  HIGHLIGHT_MIN_LENGTH,
  HIGHLIGHTS_POPUP_MAX,
} from '@lectern/shared-schema';

interface HelpGuide {
  id: string;
  title: string;
  body: ReactNode;
}

/** One short guide per feature, in the order people usually discover them. */
export const HELP_GUIDES: readonly HelpGuide[] = [
  {
    id: 'guide-saving',
    title: 'Saving articles',
    body: (
      <ul>
        <li>Paste a link that starts with http:// or https:// into the save field on My Articles.</li>
        <li>Optionally add tags, separated by commas. Empty pieces are ignored.</li>
        <li>Save a screenshot (PNG, JPEG or WebP) to turn its text into a readable, searchable article.</li>
        <li>On Android, share any page to the installed Lectern app from the share sheet.</li>
      </ul>
    ),
  },
  {
    id: 'guide-reading',
    title: 'The reading view',
    body: (
      <ul>
        <li>Opening an unread article marks it read; the header button switches it back to unread.</li>
        <li>The view shows the image, title, author, date, reading time, tags and a short summary first.</li>
        <li>“View original” opens the article on its own site in a new tab.</li>
      </ul>
    ),
  },
  {
    id: 'guide-highlights',
    title: 'Highlights',
    body: (
      <ul>
        <li>Turn on highlight mode, then select at least {HIGHLIGHT_MIN_LENGTH} characters and confirm.</li>
        <li>
          The highlights button in the header shows the count and a preview of the first{' '}
          {HIGHLIGHTS_POPUP_MAX}.
        </li>
        <li>The Highlights page collects all of them with statistics and a search.</li>
      </ul>
    ),
  },
  {
    id: 'guide-organising',
    title: 'Tags, filters and sorting',
    body: (
      <ul>
        <li>All, Unread and Read tabs; Archived and Favorites buttons narrow the list.</li>
        <li>Pick a tag in the sidebar to see only its articles; Clear removes the filter.</li>
        <li>Sort by Newest First, Oldest First or A-Z.</li>
        <li>Select Multiple lets you delete several articles at once, after a confirmation.</li>
      </ul>
    ),
  },
  {
    id: 'guide-lists',
    title: 'Reading lists and sharing',
    body: (
      <ul>
        <li>Create a list on the Lists page with a name, an optional description and the articles to add.</li>
        <li>
          New lists are public; copy the share link to send it to anyone — no account needed to open it.
        </li>
        <li>Make a list private at any time and its link stops working.</li>
      </ul>
    ),
  },
  {
    id: 'guide-search',
    title: 'Search',
    body: (
      <ul>
        <li>Type in the search box on My Articles; results update as soon as you pause.</li>
        <li>It looks through titles, descriptions, full text and tags — offline too.</li>
        <li>Clear the box to return to your full list.</li>
      </ul>
    ),
  },
  {
    id: 'guide-analytics',
    title: 'Reading analytics',
    body: (
      <ul>
        <li>Show Analytics on My Articles to open the charts; hide them again with the same button.</li>
        <li>
          See your top {ANALYTICS_TOP_TAGS} tags, articles saved per month over the last {ANALYTICS_MONTHS}{' '}
          months and this month’s count.
        </li>
        <li>Your streak counts consecutive days with at least one article read.</li>
      </ul>
    ),
  },
  {
    id: 'guide-offline',
    title: 'Offline and sync',
    body: (
      <ul>
        <li>Your library is kept on your device; everything except fetching new pages works offline.</li>
        <li>The app shows whether you are online and how many changes are waiting to sync.</li>
        <li>A save the server refused stays on its card with the reason, and Retry and Delete buttons.</li>
      </ul>
    ),
  },
  {
    id: 'guide-account',
    title: 'Export and your account',
    body: (
      <ul>
        <li>Change your display name on your profile.</li>
        <li>Export downloads your whole library as one JSON file.</li>
        <li>
          Delete account asks you to type {DELETE_CONFIRM_PHRASE}, then erases everything and signs you out.
        </li>
      </ul>
    ),
  },
];
