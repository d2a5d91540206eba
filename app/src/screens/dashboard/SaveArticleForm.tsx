import { useState } from 'react';
import type { FormEvent, Ref } from 'react';
import { checkArticleUrl, MESSAGES, parseTagInput } from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/use-toast';
import { SaveArticleError, type LocalArticle } from '../../data';
import { useLectern } from '../../session/use-lectern';

export interface SaveArticleFormProps {
  /** The URL field, for the S shortcut. */
  urlRef?: Ref<HTMLInputElement>;
  initialUrl?: string;
  initialTags?: string;
  onSaved?: (article: LocalArticle) => void;
  /** The submit button's text. */
  submitLabel?: string;
}

/**
 * Saves an article by URL with optional comma-separated tags. A URL that isn't one shows spec section 5's
 * message; a refused save shows section 8's text inline and as an error toast. Offline, the article waits
 * on the device and sync fetches it later.
 */
export function SaveArticleForm({
  urlRef,
  initialUrl = '',
  initialTags = '',
  onSaved,
  submitLabel = 'Save Article',
}: SaveArticleFormProps) {
  const lectern = useLectern();
  const { showToast } = useToast();
  const [url, setUrl] = useState(initialUrl);
  const [tags, setTags] = useState(initialTags);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = checkArticleUrl(url);
    if (!check.ok) {
      setError(check.error);
      return;
    }
    setError(null);
    setSaving(true);
    try {
      const { article, alreadySaved } = await lectern.articles.create({
        url: check.url,
        tags: parseTagInput(tags),
      });
      setUrl('');
      setTags('');
      if (article.pendingSave) {
        showToast(
          "You're offline: the article is saved here and will be fetched when you reconnect.",
          'info',
        );
      } else if (alreadySaved) {
        showToast(MESSAGES.alreadyInLibrary, 'info');
      } else {
        showToast(`Saved “${article.title}”`, 'success');
      }
      onSaved?.(article);
    } catch (caught) {
      const message = caught instanceof SaveArticleError ? caught.message : MESSAGES.saveFailed;
      setError(message);
      showToast(message, 'error');
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="save-form" onSubmit={save} noValidate aria-label="Save an article">
      <TextField
        ref={urlRef}
        className="save-form__url"
        label="Article URL"
        name="url"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.com/a-great-read"
        value={url}
        error={error}
        onChange={(event) => {
          setUrl(event.target.value);
          setError(null);
        }}
      />
      <TextField
        className="save-form__tags"
        label="Tags (optional)"
        name="tags"
        placeholder="e.g. cooking, weekend"
        hint="Separate tags with commas."
        value={tags}
        onChange={(event) => setTags(event.target.value)}
      />
      <Button type="submit" className="save-form__submit" busy={saving}>
        {submitLabel}
      </Button>
    </form>
  );
}
