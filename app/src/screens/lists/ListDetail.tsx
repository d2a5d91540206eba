import { useId, useState } from 'react';
import { type ArticleSummary, type ReadingList } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { LinkIcon } from '../../components/icons';
import { formatDate } from '../reader/format-date';
import { AddArticlesModal } from './AddArticlesModal';
import { PlusIcon } from './list-icons';
import { ListArticles } from './ListArticles';
import { shareUrl } from './share-url';
import type { useListActions } from './use-list-actions';

export interface ListDetailProps {
  list: ReadingList;
  articles: readonly ArticleSummary[];
  library: readonly ArticleSummary[];
  actions: ReturnType<typeof useListActions>;
  onDelete: (list: ReadingList) => void;
}

export function ListDetail({ list, articles, library, actions, onDelete }: ListDetailProps) {
  const [adding, setAdding] = useState(false);
  const switchId = useId();
  const url = shareUrl(window.location.origin, list);
  const inList = new Set(articles.map((a) => a.id));
  const addable = library.filter((a) => !inList.has(a.id));
  const count = articles.length;

  return (
    <section className="list-detail card" aria-labelledby="list-detail-title">
      <header className="list-detail__header">
        <div className="list-detail__heading">
          <h2 id="list-detail-title" className="list-detail__title">
            {list.name}
          </h2>
          {list.description && <p className="list-detail__description">{list.description}</p>}
          <p className="list-detail__meta">
            {count} {count === 1 ? 'article' : 'articles'} · created {formatDate(list.created_at)}
          </p>
        </div>
        <div className="list-detail__buttons">
          <Button size="sm" variant="secondary" onClick={() => setAdding(true)}>
            <PlusIcon />
            Add articles
          </Button>
          <Button size="sm" variant="ghost" className="list-detail__delete" onClick={() => onDelete(list)}>
            Delete list
          </Button>
        </div>
      </header>

      <div className="list-sharing">
        <div className="list-sharing__switch">
          <button
            type="button"
            role="switch"
            id={switchId}
            className="switch"
            aria-checked={list.is_public}
            onClick={() => void actions.setPublic(list.id, !list.is_public)}
          >
            <span className="switch__thumb" />
          </button>
          <label htmlFor={switchId} className="list-sharing__label">
            Public
            <span className="list-sharing__hint">
              {list.is_public ? 'Anyone with the link can view this list.' : 'Only you can see this list.'}
            </span>
          </label>
        </div>
        {url && (
          <div className="list-sharing__link">
            <input className="input list-sharing__url" readOnly value={url} aria-label="Share link" />
            <Button size="sm" onClick={() => void actions.copyShareLink(list)}>
              <LinkIcon size={18} />
              Copy share link
            </Button>
            <Button
              size="sm"
              variant="ghost"
              title="Make a new share link; the current one stops working"
              onClick={() => void actions.rotateShareLink(list.id)}
            >
              New link
            </Button>
          </div>
        )}
      </div>

      {count === 0 ? (
        <p className="list-detail__empty">This list has no articles yet. Add some to start reading.</p>
      ) : (
        <ListArticles
          articles={articles}
          onReorder={(ids) => void actions.reorder(list.id, ids)}
          onRemove={(article) => void actions.removeFromList(list.id, article.id)}
        />
      )}

      <AddArticlesModal
        open={adding}
        listName={list.name}
        articles={addable}
        onClose={() => setAdding(false)}
        onAdd={(ids) => actions.addToList(list.id, ids)}
      />
    </section>
  );
}
