// What the cards and the bulk delete do, with their toasts. Every write lands on the device at once and
// reaches the server through the outbox.
import { useCallback, useMemo, useState } from 'react';
import { useToast } from '../../components/use-toast';
import type { LocalArticleSummary } from '../../data';
import { useRetryFetch } from '../../hooks/use-retry-fetch';
import { useLectern } from '../../session/use-lectern';
import type { ArticleCardActions } from './ArticleCard';
import { countOf } from './article-format';
import type { ConfirmDeleteDialogProps } from './ConfirmDeleteDialog';

const UPDATE_FAILED = 'Couldn’t update the article. Please try again.';
const DELETE_FAILED = 'Couldn’t delete the article. Please try again.';

export interface Deletion {
  ids: string[];
  request: NonNullable<ConfirmDeleteDialogProps['request']>;
  /** Called once the articles are gone (the bulk delete leaves select mode). */
  after?: () => void;
}

export function useArticleActions(onSelect: ArticleCardActions['onSelect']) {
  const lectern = useLectern();
  const { showToast } = useToast();
  const [deletion, setDeletion] = useState<Deletion | null>(null);
  const retryFetch = useRetryFetch();

  const update = useCallback(
    async (
      article: LocalArticleSummary,
      body: { isFavorite?: boolean; isArchived?: boolean },
      done: string | null,
    ) => {
      try {
        await lectern.articles.update(article.id, body);
        if (done) showToast(done, 'success');
      } catch {
        showToast(UPDATE_FAILED, 'error');
      }
    },
    [lectern, showToast],
  );

  const cardActions = useMemo<ArticleCardActions>(
    () => ({
      // The star fills or empties where the reader is looking: no toast needed.
      onToggleFavorite: (article) => void update(article, { isFavorite: !article.is_favorite }, null),
      onToggleArchive: (article) =>
        void update(
          article,
          { isArchived: !article.is_archived },
          article.is_archived ? 'Moved back to your library' : 'Article archived',
        ),
      onDelete: (article) =>
        setDeletion({
          ids: [article.id],
          request: {
            title: 'Delete this article?',
            description: `“${article.title}” and its highlights will be removed from every device. This can’t be undone.`,
            confirmLabel: 'Delete',
          },
        }),
      onRetrySave: (article) => void lectern.articles.retrySave(article.id),
      onRetryFetch: (article) => void retryFetch(article.id),
      onSelect,
    }),
    [lectern, onSelect, retryFetch, update],
  );

  const askBulkDelete = useCallback((ids: string[], after: () => void) => {
    setDeletion({
      ids,
      after,
      request: {
        title: `Delete ${countOf(ids.length, 'article')}?`,
        description: 'They and their highlights will be removed from every device. This can’t be undone.',
        confirmLabel: `Delete (${ids.length})`,
      },
    });
  }, []);

  const confirmDeletion = useCallback(async () => {
    if (!deletion) return;
    let deleted = 0;
    // Spec section 7: bulk delete issues one delete per article.
    for (const id of deletion.ids) {
      try {
        await lectern.articles.remove(id);
        deleted += 1;
      } catch {
        // Already gone (another device, another tab): nothing left to delete.
      }
    }
    setDeletion(null);
    deletion.after?.();
    if (deleted === 0) showToast(DELETE_FAILED, 'error');
    else showToast(deleted === 1 ? 'Article deleted' : `Deleted ${countOf(deleted, 'article')}`, 'success');
  }, [deletion, lectern, showToast]);

  return {
    cardActions,
    askBulkDelete,
    deletion: deletion?.request ?? null,
    cancelDeletion: () => setDeletion(null),
    confirmDeletion,
  };
}
