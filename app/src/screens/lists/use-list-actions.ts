// Every change to reading lists, with the toasts of spec section 8. Each answers whether it worked so a
// form can stay open after a failure.
import { useCallback, useMemo } from 'react';
import { articlesAddedMessage, listCreatedMessage, MESSAGES, type ReadingList } from '@lectern/shared-schema';
import { useToast } from '../../components/use-toast';
import { useLectern } from '../../session/use-lectern';
import { copyText, shareUrl } from './share-url';

export interface NewList {
  name: string;
  description: string;
  isPublic: boolean;
  articleIds: readonly string[];
}

export function useListActions() {
  const lectern = useLectern();
  const { showToast } = useToast();

  const addArticles = useCallback(
    async (listId: string, articleIds: readonly string[]) => {
      // Spec section 7: one add-article call per selected article, in the order they were picked.
      for (const articleId of articleIds) await lectern.lists.addArticle(listId, { articleId });
    },
    [lectern],
  );

  /** Answers the new list's id, or null when it could not be made. */
  const createList = useCallback(
    async ({ name, description, isPublic, articleIds }: NewList): Promise<string | null> => {
      let list: ReadingList;
      try {
        ({ list } = await lectern.lists.create({
          name: name.trim(),
          description: description.trim() || null,
          isPublic,
        }));
      } catch {
        showToast(MESSAGES.listCreateFailed, 'error');
        return null;
      }
      try {
        await addArticles(list.id, articleIds);
      } catch {
        showToast(MESSAGES.listAddArticlesFailed, 'error');
        return list.id;
      }
      showToast(listCreatedMessage(list.name), 'success');
      return list.id;
    },
    [lectern, addArticles, showToast],
  );

  return useMemo(
    () => ({
      createList,

      async addToList(listId: string, articleIds: readonly string[]): Promise<boolean> {
        try {
          await addArticles(listId, articleIds);
          showToast(articlesAddedMessage(articleIds.length), 'success');
          return true;
        } catch {
          showToast(MESSAGES.listAddArticlesFailed, 'error');
          return false;
        }
      },

      async removeFromList(listId: string, articleId: string): Promise<boolean> {
        try {
          await lectern.lists.removeArticle(listId, articleId);
          showToast(MESSAGES.listArticleRemoved, 'success');
          return true;
        } catch {
          showToast(MESSAGES.listRemoveArticleFailed, 'error');
          return false;
        }
      },

      async deleteList(listId: string): Promise<boolean> {
        try {
          await lectern.lists.remove(listId);
          showToast(MESSAGES.listDeleted, 'success');
          return true;
        } catch {
          showToast(MESSAGES.listDeleteFailed, 'error');
          return false;
        }
      },

      async reorder(listId: string, articleIds: readonly string[]): Promise<void> {
        await lectern.lists.reorder(listId, { articles: [...articleIds] });
      },

      async setPublic(listId: string, isPublic: boolean): Promise<void> {
        await lectern.lists.update(listId, { isPublic });
      },

      /** A leaked link is replaced: the list gets a new one and the old one answers "not found". */
      async rotateShareLink(listId: string): Promise<boolean> {
        try {
          await lectern.lists.rotateShareLink(listId);
          showToast(MESSAGES.shareLinkRotated, 'success');
          return true;
        } catch {
          showToast(MESSAGES.shareLinkRotateFailed, 'error');
          return false;
        }
      },

      async copyShareLink(list: ReadingList): Promise<void> {
        const url = shareUrl(window.location.origin, list);
        if (!url) return;
        try {
          await copyText(url);
          showToast(MESSAGES.shareUrlCopied, 'success');
        } catch {
          showToast(url, 'info', 8000);
        }
      },
    }),
    [lectern, createList, addArticles, showToast],
  );
}
