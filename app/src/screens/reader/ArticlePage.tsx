import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MESSAGES, PRODUCT_NAME } from '@lectern/shared-schema';
import { Skeleton } from '../../components/Skeleton';
import { useLiveResult } from '../../hooks/use-live-result';
import { useLectern } from '../../session/use-lectern';
import { errorText } from './error-text';
import { Reader } from './Reader';
import './reader.css';

/** /article/{id}: the reading view. */
export function ArticlePage() {
  const { id = '' } = useParams();
  const lectern = useLectern();
  const article = useLiveResult(() => lectern.articles.get(id), [lectern, id]);
  const highlights = useLiveResult(() => lectern.highlights.byArticle(id), [lectern, id]);
  const markedRead = useRef<string | null>(null);
  /**
   * The article that may show: it is read on the device, or its mark-read failed. An unread article waits
   * for its mark-read (row and outbox entry, one transaction) to commit: a Back right after the page
   * appears unloads it and aborts a write still under way, and the dashboard would count it unread for good.
   */
  const [shownId, setShownId] = useState<string | null>(null);

  const loaded = article.status === 'ready' ? article.value.article : null;
  // A live query answers is_read true only after the write committed.
  if (loaded?.is_read && shownId !== loaded.id) setShownId(loaded.id);
  useEffect(() => {
    // Spec section 4: opening an unread article marks it read; once, so "Mark as unread" then sticks.
    if (!loaded || markedRead.current === loaded.id) return;
    markedRead.current = loaded.id;
    if (loaded.is_read) return;
    const id = loaded.id;
    void lectern.articles
      .update(id, { isRead: true })
      .catch(() => undefined)
      .finally(() => setShownId(id));
  }, [lectern, loaded]);

  useEffect(() => {
    if (loaded) document.title = `${loaded.title} · ${PRODUCT_NAME}`;
  }, [loaded]);

  if (article.status === 'error') {
    return (
      <div className="reader-state container" role="alert">
        <h1 className="reader-state__title">{errorText(article.error, MESSAGES.articleLoadFailed)}</h1>
        <Link to="/" className="button button--secondary">
          Back to articles
        </Link>
      </div>
    );
  }
  if (!loaded || shownId !== loaded.id) {
    return (
      <div className="reader-loading" aria-busy="true" aria-label="Loading article">
        <Skeleton shape="block" height="14rem" />
        <Skeleton width="80%" height="2.25rem" />
        <Skeleton width="40%" />
        <Skeleton width="100%" />
        <Skeleton width="95%" />
        <Skeleton width="90%" />
      </div>
    );
  }
  return (
    <Reader
      key={loaded.id}
      article={loaded}
      highlights={highlights.status === 'ready' ? highlights.value.highlights : []}
    />
  );
}
