import { useState } from 'react';
import type { FormEvent } from 'react';
import { isFilledIn, MESSAGES, type ArticleSummary } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { TextAreaField, TextField } from '../../components/TextField';
import { ArticlePicker } from './ArticlePicker';
import type { NewList } from './use-list-actions';

/** Shown instead of the picker while the library is empty: the list can be filled later. */
export const NO_ARTICLES_YET = 'No saved articles yet. Create the list now and add articles to it later.';

export interface CreateListModalProps {
  open: boolean;
  articles: readonly ArticleSummary[];
  onClose: () => void;
  /** Answers whether the list was made; the form stays open when it wasn't. */
  onCreate: (list: NewList) => Promise<boolean>;
}

/**
 * Spec section 5: 'List Name *' required, description optional, public by default. Articles are optional:
 * people make "Japan trip" first and fill it later, so a new user with an empty library can make a list.
 */
export function CreateListModal({ open, articles, onClose, onCreate }: CreateListModalProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPublic, setIsPublic] = useState(true);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);

  function reset() {
    setName('');
    setDescription('');
    setIsPublic(true);
    setSelected(new Set());
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isFilledIn(name)) return;
    setBusy(true);
    // The picker's order is the library's (newest first); the list keeps that order.
    const articleIds = articles.filter((a) => selected.has(a.id)).map((a) => a.id);
    const created = await onCreate({ name, description, isPublic, articleIds });
    setBusy(false);
    if (created) {
      reset();
      onClose();
    }
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="New reading list"
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="create-list-form" busy={busy}>
            Create list
          </Button>
        </>
      }
    >
      <form
        id="create-list-form"
        className="form-stack"
        onSubmit={(event) => void submit(event)}
        noValidate={false}
      >
        <TextField
          label={MESSAGES.listNameLabel}
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          maxLength={200}
          autoComplete="off"
        />
        <TextAreaField
          label="Description"
          hint="Optional: what ties these articles together."
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          rows={2}
          maxLength={2000}
        />
        <label className="checkbox-field">
          <input type="checkbox" checked={isPublic} onChange={(event) => setIsPublic(event.target.checked)} />
          <span>
            <span className="checkbox-field__label">Public</span>
            <span className="checkbox-field__hint">Anyone with the share link can see this list.</span>
          </span>
        </label>
        {articles.length === 0 ? (
          <p className="field__hint">{NO_ARTICLES_YET}</p>
        ) : (
          <ArticlePicker
            legend="Articles to add (optional)"
            articles={articles}
            selected={selected}
            onChange={setSelected}
          />
        )}
      </form>
    </Modal>
  );
}
