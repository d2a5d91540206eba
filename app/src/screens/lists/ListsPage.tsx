import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { ReadingList } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { SkeletonCard } from '../../components/Skeleton';
import { useLiveResult } from '../../hooks/use-live-result';
import { useLectern } from '../../session/use-lectern';
import { CreateListModal } from './CreateListModal';
import { DeleteListDialog } from './DeleteListDialog';
import { PlusIcon } from './list-icons';
import { ListDetail } from './ListDetail';
import { useListActions } from './use-list-actions';
import '../../styles/screens.css';
import './lists.css';

/** /lists: the user's reading lists; the one open is named in the address (?list=id). */
export function ListsPage() {
  const lectern = useLectern();
  const actions = useListActions();
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<ReadingList | null>(null);
  const lists = useLiveResult(() => lectern.lists.list(), [lectern]);
  const library = useLiveResult(() => lectern.articles.list(), [lectern]);
  const selectedId = params.get('list');
  const selected = useLiveResult(
    () => (selectedId ? lectern.lists.get(selectedId) : Promise.resolve(null)),
    [lectern, selectedId],
  );

  const allLists = lists.status === 'ready' ? lists.value.lists : [];
  const articles = library.status === 'ready' ? library.value.articles : [];
  const open = selected.status === 'ready' ? selected.value : null;
  const select = (id: string | null) => setParams(id ? { list: id } : {}, { replace: false });

  return (
    <div className="lists-page container" data-has-selection={open ? true : undefined}>
      <header className="screen-header">
        <div>
          <h1 className="screen-header__title">Reading lists</h1>
          <p className="screen-header__lead">Group articles, put them in order and share them by link.</p>
        </div>
        <Button onClick={() => setCreating(true)}>
          <PlusIcon />
          New list
        </Button>
      </header>

      {lists.status === 'ready' && allLists.length === 0 ? (
        <div className="lists-empty card card--padded">
          <h2 className="lists-empty__title">No reading lists yet</h2>
          <p>Make one for a topic, a trip or a friend, and share it with a link.</p>
          <Button onClick={() => setCreating(true)}>Create your first list</Button>
        </div>
      ) : (
        <div className="lists-layout">
          <nav className="lists-index" aria-label="Your lists">
            {lists.status === 'loading' && <SkeletonCard />}
            <ul className="lists-index__list">
              {allLists.map((list) => (
                <li key={list.id}>
                  <Link
                    to={`/lists?list=${encodeURIComponent(list.id)}`}
                    className="list-card"
                    aria-current={list.id === selectedId ? 'true' : undefined}
                  >
                    <span className="list-card__name">{list.name}</span>
                    {list.description && <span className="list-card__description">{list.description}</span>}
                    <span className="list-card__meta">
                      <span>
                        {list.article_count} {list.article_count === 1 ? 'article' : 'articles'}
                      </span>
                      <span className={`badge ${list.is_public ? 'badge--public' : 'badge--private'}`}>
                        {list.is_public ? 'Public' : 'Private'}
                      </span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>

          <div className="lists-detail-column">
            {open ? (
              <>
                <button type="button" className="lists-back" onClick={() => select(null)}>
                  ← All lists
                </button>
                <ListDetail
                  key={open.list.id}
                  list={open.list}
                  articles={open.articles}
                  library={articles}
                  actions={actions}
                  onDelete={setToDelete}
                />
              </>
            ) : (
              allLists.length > 0 && (
                <p className="lists-hint card card--padded">
                  Choose a list to see its articles, order and sharing.
                </p>
              )
            )}
          </div>
        </div>
      )}

      <CreateListModal
        open={creating}
        articles={articles}
        onClose={() => setCreating(false)}
        onCreate={async (list) => {
          const id = await actions.createList(list);
          if (id) select(id);
          return id !== null;
        }}
      />
      <DeleteListDialog
        list={toDelete}
        onCancel={() => setToDelete(null)}
        onConfirm={async (list) => {
          if (await actions.deleteList(list.id)) {
            setToDelete(null);
            select(null);
          }
        }}
      />
    </div>
  );
}
