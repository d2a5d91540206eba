import { useState } from 'react';
import {
  bookmarksExportFileName,
  DELETE_ACCOUNT_LOGOUT_DELAY_MS,
  defaultDisplayName,
  exportFileName,
  highlightsExportFileName,
  MESSAGES,
} from '@lectern/shared-schema';
import { Link } from 'react-router-dom';
import { Button, buttonClassName } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DownloadIcon } from '../../components/icons';
import { useToast } from '../../components/use-toast';
import { useLiveResult } from '../../hooks/use-live-result';
import { useLectern } from '../../session/use-lectern';
import { useSession } from '../../session/use-session';
import { formatDate } from '../reader/format-date';
import { BookmarkletOffer } from '../bookmarklet/BookmarkletOffer';
import { DeleteAccountModal } from './DeleteAccountModal';
import { downloadFile, prettyJson } from './export-download';
import { OfflineLibraryPanel } from './OfflineLibraryPanel';
import { ProfileForm } from './ProfileForm';
import '../../styles/screens.css';
import './profile.css';

type ExportKind = 'json' | 'highlights' | 'bookmarks';

const SIGN_OUT_EVERYWHERE_FAILED =
  'Could not sign out everywhere. Please check your connection and try again.';

/** /profile: the display name, the user's stats, export, signing out everywhere and account deletion. */
export function ProfilePage() {
  const lectern = useLectern();
  const { user, logout, logoutEverywhere } = useSession();
  const { showToast } = useToast();
  const [exporting, setExporting] = useState<ExportKind | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [signingOutEverywhere, setSigningOutEverywhere] = useState(false);
  const numbers = useLiveResult(async () => {
    const [{ stats }, highlights, { lists }] = await Promise.all([
      lectern.articles.list(),
      lectern.highlights.stats(),
      lectern.lists.list(),
    ]);
    return { ...stats, highlights: highlights.stats.total_highlights, lists: lists.length };
  }, [lectern]);

  if (!user) return null;
  const name = defaultDisplayName(user);
  const stats = numbers.status === 'ready' ? numbers.value : null;
  const cards = [
    { label: 'Articles', value: stats?.total },
    { label: 'Unread', value: stats?.unread },
    { label: 'Read', value: stats?.read },
    { label: 'Favorites', value: stats?.favorites },
    { label: 'Highlights', value: stats?.highlights },
    { label: 'Lists', value: stats?.lists },
  ];

  async function exportData(kind: ExportKind) {
    setExporting(kind);
    try {
      const now = new Date();
      if (kind === 'json') downloadFile(exportFileName(now), prettyJson(await lectern.auth.exportData()));
      else if (kind === 'highlights')
        downloadFile(highlightsExportFileName(now), await lectern.auth.exportHighlights());
      else downloadFile(bookmarksExportFileName(now), await lectern.auth.exportBookmarks());
      showToast(MESSAGES.exported, 'success');
    } catch {
      showToast(MESSAGES.exportFailed, 'error');
    } finally {
      setExporting(null);
    }
  }

  async function signOutEverywhere() {
    const failed = () => showToast(SIGN_OUT_EVERYWHERE_FAILED, 'error');
    setSigningOutEverywhere(false);
    try {
      // With unsynced changes the session asks first; a failure after that answer comes to onFailure.
      await logoutEverywhere({ onFailure: failed });
    } catch {
      failed();
    }
  }

  async function deleteAccount() {
    try {
      await lectern.auth.deleteAccount();
    } catch {
      showToast(MESSAGES.accountDeleteFailed, 'error');
      return;
    }
    setDeleting(false);
    showToast(MESSAGES.accountDeleted, 'success', DELETE_ACCOUNT_LOGOUT_DELAY_MS + 1000);
    // Spec section 4: after 2 seconds the user is logged out and sent to /login.
    setTimeout(() => void logout({ force: true }), DELETE_ACCOUNT_LOGOUT_DELAY_MS);
  }

  return (
    <div className="profile-page container">
      <header className="profile-hero">
        {user.avatarUrl ? (
          <img className="profile-hero__avatar" src={user.avatarUrl} alt="" />
        ) : (
          <span className="profile-hero__avatar profile-hero__avatar--initial" aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div>
          <h1 className="profile-hero__name">{name}</h1>
          <p className="profile-hero__meta">
            {user.email} · member since {formatDate(user.created_at)}
          </p>
        </div>
      </header>

      <ul className="stat-cards" aria-label="Your reading">
        {cards.map((card) => (
          <li key={card.label} className="stat-card">
            <span className="stat-card__value">{card.value ?? '–'}</span>
            <span className="stat-card__label">{card.label}</span>
          </li>
        ))}
      </ul>

      <div className="profile-sections">
        <section className="card card--padded profile-section" aria-labelledby="profile-details">
          <h2 id="profile-details" className="profile-section__title">
            Profile
          </h2>
          <ProfileForm key={user.username ?? user.email} user={user} />
        </section>

        <section className="card card--padded profile-section" aria-labelledby="profile-export">
          <h2 id="profile-export" className="profile-section__title">
            Export your data
          </h2>
          <p className="profile-section__text">
            Download your articles, highlights, tags and lists as one JSON file, yours to keep or move
            elsewhere. Your highlights also come as Markdown notes for Obsidian or Logseq, and your library as
            a bookmarks file every browser and read-it-later app can import.
          </p>
          <div className="profile-section__buttons">
            <Button
              variant="secondary"
              busy={exporting === 'json'}
              disabled={exporting !== null}
              onClick={() => void exportData('json')}
            >
              <DownloadIcon size={18} />
              Export data
            </Button>
            <Button
              variant="secondary"
              busy={exporting === 'highlights'}
              disabled={exporting !== null}
              onClick={() => void exportData('highlights')}
            >
              <DownloadIcon size={18} />
              Export highlights (Markdown)
            </Button>
            <Button
              variant="secondary"
              busy={exporting === 'bookmarks'}
              disabled={exporting !== null}
              onClick={() => void exportData('bookmarks')}
            >
              <DownloadIcon size={18} />
              Export bookmarks (HTML)
            </Button>
          </div>
        </section>

        <OfflineLibraryPanel />

        <section className="card card--padded profile-section" aria-labelledby="profile-bookmarklet">
          <h2 id="profile-bookmarklet" className="profile-section__title">
            Save from any page
          </h2>
          <p className="profile-section__text">
            One click in your bookmarks bar saves the page you are reading, as you see it, to your library.
          </p>
          <BookmarkletOffer />
        </section>

        <section className="card card--padded profile-section" aria-labelledby="profile-import">
          <h2 id="profile-import" className="profile-section__title">
            Import from another app
          </h2>
          <p className="profile-section__text">
            Bring your saves from Pocket, Instapaper, Omnivore, Wallabag, Raindrop or your browser’s
            bookmarks, with their dates, tags and highlights.
          </p>
          <div>
            <Link to="/import" className={buttonClassName({ variant: 'secondary' })}>
              Import a library
            </Link>
          </div>
        </section>

        <section className="card card--padded profile-section" aria-labelledby="profile-sessions">
          <h2 id="profile-sessions" className="profile-section__title">
            Sign out everywhere
          </h2>
          <p className="profile-section__text">
            Ends your session on every device and browser where you are signed in, this one included. Use it
            if you signed in on a computer that isn&apos;t yours, or lost a device.
          </p>
          <div>
            <Button variant="secondary" onClick={() => setSigningOutEverywhere(true)}>
              Sign out everywhere
            </Button>
          </div>
        </section>

        <section
          className="card card--padded profile-section profile-section--danger"
          aria-labelledby="profile-delete"
        >
          <h2 id="profile-delete" className="profile-section__title">
            Delete account
          </h2>
          <p className="profile-section__text">
            Removes your account and everything in it from this device and from the server, for good.
          </p>
          <div>
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete account
            </Button>
          </div>
        </section>
      </div>

      <ConfirmDialog
        subject={signingOutEverywhere ? true : null}
        title="Sign out everywhere?"
        description="You will be signed out on every device, this one included, and need your password or Google to sign in again."
        confirmLabel="Sign out everywhere"
        onCancel={() => setSigningOutEverywhere(false)}
        onConfirm={signOutEverywhere}
      />
      <DeleteAccountModal open={deleting} onClose={() => setDeleting(false)} onConfirm={deleteAccount} />
    </div>
  );
}
