import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { checkArticleUrl, MESSAGES, PAGE_HTML_MAX_BYTES, PRODUCT_NAME } from '@lectern/shared-schema';
import { Button, buttonClassName } from '../../components/Button';
import { CheckIcon } from '../../components/icons';
import { SaveArticleError } from '../../data';
import { ShareTargetCard } from '../auth/ShareTargetCard';
import { LoadingScreen } from '../../session/LoadingScreen';
import { useLectern } from '../../session/use-lectern';
import { useSession } from '../../session/use-session';
import { isOwnBookmarkletKey, MESSAGE, pageMessageOf } from './bookmarklet';

/** How long the window waits for the page's HTML before saving by address alone (/share). */
export const PAGE_WAIT_MS = 4000;
/** A saved page's window closes itself after the reader had a moment to see it worked. */
const CLOSE_AFTER_MS = 1500;

export const SAVE_WINDOW_TEXTS = {
  saved: `Saved to ${PRODUCT_NAME}`,
  alreadySaved: `Already in your ${PRODUCT_NAME} library`,
  signedOut: `You’re not signed in to ${PRODUCT_NAME}.`,
  failed: (reason: string) => `${PRODUCT_NAME} couldn’t save this page: ${reason}`,
  invalid: 'This page can’t be saved: only http and https pages can.',
} as const;

type SaveState =
  | { step: 'waiting' }
  | { step: 'confirm'; html: string }
  | { step: 'saving' }
  | { step: 'done'; text: string; articleId: string }
  | { step: 'failed'; text: string }
  | { step: 'byAddress' };

/**
 * /save: the small window the "Save to Lectern" bookmarklet opens. It asks the page that opened it for its
 * HTML (postMessage; only from that window, from the origin of the address it names, in the exact shape),
 * saves it with the address, tells the page the outcome and closes. With no answer (a page that cut the
 * link to its windows), it falls back to /share with the address alone.
 */
export function SavePage() {
  const [params] = useSearchParams();
  const { loading, isAuthenticated } = useSession();
  const check = checkArticleUrl(params.get('url') ?? '');
  const url = check.ok ? check.url : null;

  if (loading) return <LoadingScreen />;
  if (!url) return <SaveWindow text={SAVE_WINDOW_TEXTS.invalid} />;
  if (!isAuthenticated) return <SignedOut url={url} />;
  return <SaveFromPage url={url} />;
}

/** Tells the page that opened this window what to show, if that page is still at the address saved. */
function tellPage(url: string, text: string, signIn = false) {
  try {
    (window.opener as Window | null)?.postMessage(
      { type: MESSAGE.result, text, signIn },
      new URL(url).origin,
    );
  } catch {
    // The page went elsewhere or its origin is opaque: this window says it all the same.
  }
}

function SignedOut({ url }: { url: string }) {
  useEffect(() => tellPage(url, SAVE_WINDOW_TEXTS.signedOut, true), [url]);
  return (
    <SaveWindow text={SAVE_WINDOW_TEXTS.signedOut}>
      <p className="share-target__lead">Sign in, then click Save to {PRODUCT_NAME} on the page again.</p>
      <div className="share-target__actions">
        <Link to="/login" className={buttonClassName()}>
          Sign in
        </Link>
      </div>
    </SaveWindow>
  );
}

function SaveFromPage({ url }: { url: string }) {
  const lectern = useLectern();
  const [state, setState] = useState<SaveState>({ step: 'waiting' });
  const started = useRef(false);

  function save(html: string) {
    if (started.current) return;
    started.current = true;
    setState({ step: 'saving' });
    // A page past the server's limit is saved by its address (the server fetches it) rather than refused.
    const body = new TextEncoder().encode(html).length <= PAGE_HTML_MAX_BYTES ? { url, html } : { url };
    lectern.articles.create(body).then(
      ({ article, alreadySaved }) => {
        const text = alreadySaved ? SAVE_WINDOW_TEXTS.alreadySaved : SAVE_WINDOW_TEXTS.saved;
        setState({ step: 'done', text, articleId: article.id });
        tellPage(url, text);
        setTimeout(() => window.close(), CLOSE_AFTER_MS);
      },
      (error: unknown) => {
        const text = SAVE_WINDOW_TEXTS.failed(
          error instanceof SaveArticleError ? error.message : MESSAGES.saveFailed,
        );
        setState({ step: 'failed', text });
        tellPage(url, text);
      },
    );
  }

  useEffect(() => {
    const page = window.opener as Window | null;
    if (!page) {
      setState({ step: 'byAddress' });
      return;
    }
    const origin = new URL(url).origin;
    const onMessage = (event: MessageEvent) => {
      if (event.source !== page || event.origin !== origin) return;
      const message = pageMessageOf(event.data, url);
      if (!message) return;
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      if (isOwnBookmarkletKey(message.key)) save(message.html);
      else setState({ step: 'confirm', html: message.html });
    };
    window.addEventListener('message', onMessage);
    const timer = setTimeout(() => setState({ step: 'byAddress' }), PAGE_WAIT_MS);
    try {
      page.postMessage({ type: MESSAGE.ready }, origin);
    } catch {
      setState({ step: 'byAddress' });
    }
    return () => {
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
    };
    // save is stable for this window's one address; the handshake runs once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  // The fallback the issue names: the share screen with the address, saved when the reader says so.
  if (state.step === 'byAddress') return <Navigate to={`/share?url=${encodeURIComponent(url)}`} replace />;
  if (state.step === 'done') {
    return (
      <SaveWindow text={state.text} done>
        <div className="share-target__actions">
          <Link
            to={`/article/${state.articleId}`}
            className={buttonClassName({ variant: 'secondary' })}
            target="_blank"
          >
            Read Now
          </Link>
        </div>
      </SaveWindow>
    );
  }
  if (state.step === 'failed') return <SaveWindow text={state.text} alert />;
  if (state.step === 'confirm') {
    const { html } = state;
    return (
      <SaveWindow text="Save this page to your library?">
        <p className="share-target__shared">
          <span className="share-target__url">{url}</span>
        </p>
        <div className="share-target__actions">
          <Button onClick={() => save(html)}>Save</Button>
          <Button variant="secondary" onClick={() => window.close()}>
            Cancel
          </Button>
        </div>
      </SaveWindow>
    );
  }
  return (
    <SaveWindow text={state.step === 'saving' ? 'Saving this page…' : 'Reading the page…'} busy>
      <p className="share-target__shared">
        <span className="share-target__url">{url}</span>
      </p>
    </SaveWindow>
  );
}

function SaveWindow({
  text,
  children,
  busy = false,
  done = false,
  alert = false,
}: {
  text: string;
  children?: ReactNode;
  busy?: boolean;
  done?: boolean;
  alert?: boolean;
}) {
  return (
    <ShareTargetCard>
      {alert ? (
        <p className="form-alert form-alert--error" role="alert">
          {text}
        </p>
      ) : (
        <p className={done ? 'share-target__done' : 'share-target__status'} role="status">
          {busy && <span className="loading-screen__spinner" aria-hidden="true" />}
          {done && (
            <span className="share-target__check" aria-hidden="true">
              <CheckIcon size={18} />
            </span>
          )}
          {text}
        </p>
      )}
      {children}
    </ShareTargetCard>
  );
}
