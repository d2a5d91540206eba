// Saving and deleting highlights with the toasts of spec section 8.
import { useCallback } from 'react';
import { HIGHLIGHT_COLOR, MESSAGES } from '@lectern/shared-schema';
import { useToast } from '../../components/use-toast';
import { useLectern } from '../../session/use-lectern';
import type { HighlightDraft } from './highlighting/anchor';

export function useHighlightActions(articleId: string) {
  const lectern = useLectern();
  const { showToast } = useToast();

  const saveHighlight = useCallback(
    async (draft: HighlightDraft): Promise<boolean> => {
      try {
        await lectern.highlights.create({
          articleId,
          highlightedText: draft.text,
          contextBefore: draft.contextBefore,
          contextAfter: draft.contextAfter,
          positionStart: draft.start,
          positionEnd: draft.end,
          color: HIGHLIGHT_COLOR,
        });
        showToast(MESSAGES.highlightAdded, 'success');
        return true;
      } catch {
        showToast(MESSAGES.highlightSaveFailed, 'error');
        return false;
      }
    },
    [lectern, articleId, showToast],
  );

  const deleteHighlight = useCallback(
    async (highlightId: string): Promise<boolean> => {
      try {
        await lectern.highlights.remove(highlightId);
        showToast(MESSAGES.highlightDeleted, 'success');
        return true;
      } catch {
        showToast(MESSAGES.highlightDeleteFailed, 'error');
        return false;
      }
    },
    [lectern, showToast],
  );

  return { saveHighlight, deleteHighlight };
}
