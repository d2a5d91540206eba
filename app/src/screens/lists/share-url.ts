// Spec section 6: only public lists expose a share link, the origin plus /list/{share_id}.
import type { ReadingList } from '@lectern/shared-schema';

export function shareUrl(origin: string, list: Pick<ReadingList, 'share_id' | 'is_public'>): string | null {
  return list.is_public ? `${origin}/list/${encodeURIComponent(list.share_id)}` : null;
}

/** The clipboard API where the page may use it, else the old copy command on a hidden field. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Denied (no permission, page not focused): try the old way below.
    }
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.append(field);
  field.select();
  const copied = document.execCommand('copy');
  field.remove();
  if (!copied) throw new Error('The clipboard is not available');
}
