import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MESSAGES, PRODUCT_NAME } from '@lectern/shared-schema';
import { Skeleton } from '../../components/Skeleton';
import { useLectern } from '../../session/use-lectern';
import { errorText } from './error-text';
import { Reader } from './Reader';
import { useLiveResult } from './use-live-result';
import './reader.css';

/** /article/{id}: the reading view. */
export function ArticlePage() {
  const { id = '' } = useParams();
  const lectern = useLectern();
  const article = useLiveResult(() => lectern.articles.get(id), [lectern, id]);
  const highlights = useLiveResult(() => lectern.highlights.byArticle(id), [lectern, id]);
  const markedRead = useRef<string | null>(null);

  const loaded = article.status === 'ready' ? article.value.article : null;
  useEffect(() => {
    // Spec section 4: opening an unread article marks it read; once, so "Mark as unread" then sticks.
    if (!loaded || markedRead.current === loaded.id) return;
    markedRead.current = loaded.id;
    if (!loaded.is_read) void lectern.articles.update(loaded.id, { isRead: true }).catch(() => undefined);
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
  if (!loaded) {
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
