import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  displayReadingTime,
  LIST_DESCRIPTION_PREVIEW_LENGTH,
  MESSAGES,
  PRODUCT_NAME,
  type PublicListResponse,
} from '@lectern/shared-schema';
import { buttonClassName } from '../../components/Button';
import { ListIcon } from '../../components/icons';
import { Skeleton, SkeletonCard } from '../../components/Skeleton';
import { ApiError } from '../../data';
import { useLectern } from '../../session/use-lectern';
import { useSession } from '../../session/use-session';
import { articleSource, countOf, formatDate } from '../dashboard/article-format';
import { ArticleImage } from '../dashboard/ArticleImage';
import './public-list.css';

type Load =
  { state: 'loading' } | { state: 'loaded'; data: PublicListResponse } | { state: 'failed'; error: string };

/** Spec section 8: the server's error text, else 'Failed to load reading list'. */
function publicListError(error: unknown): string {
  return error instanceof ApiError && error.serverMessage
    ? error.serverMessage
    : MESSAGES.publicListLoadFailed;
}

function preview(text: string | null): string | null {
  if (!text) return null;
  return text.length > LIST_DESCRIPTION_PREVIEW_LENGTH
    ? `${text.slice(0, LIST_DESCRIPTION_PREVIEW_LENGTH).trimEnd()}…`
    : text;
}

/** /list/{shareId}: a reading list someone shared, readable by anyone with the link. */
export function PublicListPage() {
  const { shareId = '' } = useParams();
  const lectern = useLectern();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    setLoad({ state: 'loading' });
    lectern.lists.getPublic(shareId).then(
      (data) => current && setLoad({ state: 'loaded', data }),
      (error: unknown) => current && setLoad({ state: 'failed', error: publicListError(error) }),
    );
    return () => {
      current = false;
    };
  }, [lectern, shareId]);

  if (load.state === 'loading') return <ListSkeleton />;
  if (load.state === 'failed') return <ListNotFound error={load.error} />;
  const { list, articles } = load.data;
  return (
    <div className="public-list">
      <title>{`${list.name} · ${PRODUCT_NAME}`}</title>
      <header className="page-hero">
        <div className="container page-hero__inner">
          <p className="eyebrow">Shared reading list</p>
          <h1 className="page-hero__title">{list.name}</h1>
          {list.description && <p className="page-hero__lead">{list.description}</p>}
          <p className="public-list__facts">
            <span>{countOf(list.article_count, 'article')}</span>
            <span>Curated by {list.owner_username || MESSAGES.anonymousOwner}</span>
            <span>
              Created <time dateTime={list.created_at}>{formatDate(list.created_at)}</time>
            </span>
          </p>
        </div>
      </header>
      <div className="container public-list__body">
        {articles.length === 0 ? (
          <p className="empty-state">{MESSAGES.publicListEmpty}</p>
        ) : (
          <ol className="public-list__articles">
            {articles.map((article) => (
              <li key={article.id}>
                <a className="public-card" href={article.url} target="_blank" rel="noopener noreferrer">
                  <span className="public-card__media">
                    <ArticleImage imageUrl={article.image_url} title={article.title} />
                  </span>
                  <span className="public-card__body">
                    <span className="public-card__source">{articleSource(article)}</span>
                    <span className="public-card__title">
                      {article.title}
                      <span className="sr-only"> (opens in a new tab)</span>
                    </span>
                    {article.description && (
                      <span className="public-card__description">{preview(article.description)}</span>
                    )}
                    <span className="public-card__meta">
                      {article.author && <span>{article.author}</span>}
                      <span>{displayReadingTime(article.reading_time)} min read</span>
                    </span>
                    {article.tags.length > 0 && (
                      <span className="article-card__tags">
                        {article.tags.map((tag) => (
                          <span key={tag} className="tag-chip">
                            {tag}
                          </span>
                        ))}
                      </span>
                    )}
                  </span>
                </a>
              </li>
            ))}
          </ol>
        )}
        <CreateYourOwn />
      </div>
    </div>
  );
}

function CreateYourOwn() {
  const { isAuthenticated } = useSession();
  return (
    <aside className="callout public-list__cta">
      <h2 className="callout__title">Make reading lists of your own</h2>
      <p>
        Save articles from anywhere, read them offline, and share the best of them as a list like this one.{' '}
        {PRODUCT_NAME} is free while in beta.
      </p>
      <div className="callout__actions">
        <Link to={isAuthenticated ? '/lists' : '/login'} className={buttonClassName()}>
          {isAuthenticated ? 'Go to your lists' : 'Create your own lists'}
        </Link>
      </div>
    </aside>
  );
}

function ListNotFound({ error }: { error: string }) {
  return (
    <div className="container public-list__missing">
      <title>{`${MESSAGES.publicListNotFound} · ${PRODUCT_NAME}`}</title>
      <span className="public-list__missing-icon" aria-hidden="true">
        <ListIcon size={28} />
      </span>
      <h1>{MESSAGES.publicListNotFound}</h1>
      <p className="public-list__error">{error}</p>
      <p>The link may be mistyped, or its owner made the list private or deleted it.</p>
      <CreateYourOwn />
    </div>
  );
}

function ListSkeleton() {
  return (
    <div
      className="container public-list__body"
      role="status"
      aria-busy="true"
      aria-label="Loading reading list"
    >
      <Skeleton width="40%" height="2.25rem" />
      <Skeleton width="65%" />
      <div className="public-list__articles">
        <SkeletonCard />
        <SkeletonCard />
        <SkeletonCard />
      </div>
    </div>
  );
}
