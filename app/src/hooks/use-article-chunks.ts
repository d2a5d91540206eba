// The dashboard's list a chunk at a time (lectern.articles.page): each chunk of rows the grid builds, and
// the list's total, followed live on its own. A scroll reads only the chunk coming into view, never again
// the rows already read (each row read is decoded on the page's thread, and reading them again at every
// step of a scroll made its longest frames); a write touching the list reads the followed chunks again.
import { useContext, useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import type { ArticlesQuery } from '@lectern/shared-schema';
import { listKeyOf, type ArticleOrder, type LocalArticleSummary } from '../data';
import { LecternContext } from '../session/use-lectern';

/** The chunks of one list answered so far. */
export interface ArticleChunks {
  /** The list (data's listKeyOf) the chunks are of: chunks answered for another key are another list's. */
  key: string;
  total: number;
  /** Chunk number → its rows (chunk n holds the rows from n × chunk size). */
  chunks: ReadonlyMap<number, readonly LocalArticleSummary[]>;
  /** Spec section 8: a failed list keeps its message without showing it. */
  error: string | null;
}

/** Chunks read beyond those asked, either side, kept followed: a scroll to and fro doesn't read them again. */
const KEPT_AROUND = 1;

interface Followed {
  key: string;
  unsubscribes: Map<number, () => void>;
}

function askedQuery(key: string): ArticlesQuery {
  // The key names every field of the query used here.
  const [archived, favorite, is_read, tag_name] = JSON.parse(key) as [
    boolean | null,
    boolean | null,
    boolean | null,
    string | null,
  ];
  const asked: ArticlesQuery = {};
  if (archived !== null) asked.archived = archived;
  if (favorite !== null) asked.favorite = favorite;
  if (is_read !== null) asked.is_read = is_read;
  if (tag_name !== null) asked.tag_name = tag_name;
  return asked;
}

/**
 * Follows the chunks [firstChunk, endChunk) of the list in `order`, handing each answer to `setShown`
 * merged into what it holds: a chunk of another list starts it afresh (so a new list doesn't blank what is
 * shown until its first chunk answers), and chunks no longer followed are dropped.
 */
export function useArticleChunks(
  query: ArticlesQuery,
  order: ArticleOrder,
  firstChunk: number,
  endChunk: number,
  chunkSize: number,
  setShown: Dispatch<SetStateAction<ArticleChunks | undefined>>,
): void {
  const lectern = useContext(LecternContext);
  const key = listKeyOf(query, order);
  const followed = useRef<Followed | null>(null);

  useEffect(() => {
    if (!lectern) return;
    let current = followed.current;
    if (current?.key !== key) {
      for (const unsubscribe of current?.unsubscribes.values() ?? []) unsubscribe();
      current = followed.current = { key, unsubscribes: new Map() };
    }
    const dropped: number[] = [];
    for (const [chunk, unsubscribe] of current.unsubscribes) {
      if (chunk >= firstChunk - KEPT_AROUND && chunk < endChunk + KEPT_AROUND) continue;
      unsubscribe();
      current.unsubscribes.delete(chunk);
      dropped.push(chunk);
    }
    if (dropped.length > 0) {
      setShown((shown) => {
        if (shown?.key !== key) return shown;
        const chunks = new Map(shown.chunks);
        for (const chunk of dropped) chunks.delete(chunk);
        return { ...shown, chunks };
      });
    }
    const asked = askedQuery(key);
    for (let chunk = firstChunk; chunk < endChunk; chunk += 1) {
      if (current.unsubscribes.has(chunk)) continue;
      const start = chunk * chunkSize;
      // An answer already on its way when the chunk stops being followed is left out.
      let active = true;
      const subscription = lectern
        .liveQuery(async () => {
          try {
            const page = await lectern.articles.page(asked, order, start, start + chunkSize);
            return { total: page.total, articles: page.articles, error: null };
          } catch (error) {
            return { total: 0, articles: [], error: error instanceof Error ? error.message : String(error) };
          }
        })
        .subscribe({
          next: ({ total, articles, error }) => {
            if (!active) return;
            setShown((shown) => {
              const chunks = new Map(shown?.key === key ? shown.chunks : []);
              chunks.set(chunk, articles);
              return { key, total, chunks, error };
            });
          },
          error: (error: unknown) => console.error('Listing articles failed', error),
        });
      current.unsubscribes.set(chunk, () => {
        active = false;
        subscription.unsubscribe();
      });
    }
  }, [lectern, key, order, firstChunk, endChunk, chunkSize, setShown]);

  // Unmounted: nothing followed any more (also between StrictMode's two mounts, which follow again).
  useEffect(
    () => () => {
      for (const unsubscribe of followed.current?.unsubscribes.values() ?? []) unsubscribe();
      followed.current = null;
    },
    [],
  );
}
