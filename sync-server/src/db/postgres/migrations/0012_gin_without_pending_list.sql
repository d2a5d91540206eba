-- The search indexes write each entry into the index itself, never into a pending list. GIN's default
-- (fastupdate) keeps a write's entries in a list beside the index until it passes gin_pending_list_limit
-- (4 MB: about 45 articles of 25 KB), and every search reads that whole list besides the index: on the
-- 50,000-article library, with 43 articles saved since the list was last emptied (366 of its pages),
-- search took p50 35 ms and p95 1.6 s, against 6.8 and 10.2 ms with the list empty. A save now writes its
-- entries into the index at once (a 25 KB article: about 15 ms more of the database's time), so search
-- costs the same however many saves came before it. The lists already there are emptied into the indexes.
ALTER INDEX "article_search_vectors_idx" SET (fastupdate = off);
--> statement-breakpoint
SELECT gin_clean_pending_list('article_search_vectors_idx'::regclass);
--> statement-breakpoint
ALTER INDEX "highlights_search_idx" SET (fastupdate = off);
--> statement-breakpoint
SELECT gin_clean_pending_list('highlights_search_idx'::regclass);
