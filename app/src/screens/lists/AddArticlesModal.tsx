import { useState } from 'react';
import type { ArticleSummary } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { ArticlePicker } from './ArticlePicker';

export const PICK_ONE_ARTICLE = 'Select at least one article to add.';

export interface AddArticlesModalProps {
  open: boolean;
  listName: string;
  /** The articles not in the list yet. */
  articles: readonly ArticleSummary[];
  onClose: () => void;
  onAdd: (articleIds: string[]) => Promise<boolean>;
}

/** Spec section 5: adding articles to a list needs at least one selected. */
export function AddArticlesModal({ open, listName, articles, onClose, onAdd }: AddArticlesModalProps) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function add() {
    if (selected.size === 0) {
      setError(PICK_ONE_ARTICLE);
      return;
    }
    setBusy(true);
    const added = await onAdd(articles.filter((a) => selected.has(a.id)).map((a) => a.id));
    setBusy(false);
    if (added) {
      setSelected(new Set());
      onClose();
    }
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={`Add articles to “${listName}”`}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void add()} busy={busy} disabled={articles.length === 0}>
            Add {selected.size > 0 ? selected.size : ''} {selected.size === 1 ? 'article' : 'articles'}
          </Button>
        </>
      }
    >
      {articles.length === 0 ? (
        <p>Every article in your library is already in this list.</p>
      ) : (
        <ArticlePicker
          legend="Articles to add"
          articles={articles}
          selected={selected}
          onChange={(next) => {
            setSelected(next);
            if (next.size > 0) setError(null);
          }}
          error={error}
        />
      )}
    </Modal>
  );
}
