-- Search within the latency targets at 50,000 articles (issue 16: p95 <= 15 ms), measured by
-- bench/postgres-search-bench.ts. Three costs went, each by giving the search something smaller to read:
--
-- 1. Ranking read each matching article's whole vector (about 22 KB, compressed out of line) for up to 500
--    matches. It now reads search_rank_vector: the title, tags, description, author, url and the first
--    600 characters of the text, with the same weights and positions, stored inline, about a kilobyte.
--    A word found only further down the text still matches (search_vector holds every word); it ranks
--    below the articles that have it in a field or in their opening, then newest first.
-- 2. A word being typed (`gar` of `garden`) made GIN read and merge the entries of every word with that
--    beginning, for the whole library, whatever the LIMIT: with thousands of such words at 50,000
--    articles, 100 ms and more. search_vector now also holds each word's first 2 to 6 letters as lexemes
--    of their own, marked by a trailing `*` (no word has one: punctuation separates words), so a beginning
--    of up to 6 letters is one entry of the index, read like a whole word (lectern_search_prefix). Longer
--    beginnings are shared by few words and stay prefix matches.
-- 3. Matching needs no positions or weights, so search_vector keeps none (strip): smaller to write and to
--    store. The ranking's positions and weights are in search_rank_vector.
-- 4. The newest 500 matches are ranked (SEARCH_RANK_WINDOW): finding them meant reading the row of every
--    match, 45,000 for a common word at 50,000 articles. The GIN index now also holds user_id and seq
--    (btree_gin), so a search first asks for the matches among the caller's newest 1,000 articles, then
--    4,000 or 16,000, then all, stopping at the first that finds 500 (lectern_newest_matches): the same
--    500, with a few thousand rows read at most. articles_user_seq_idx finds the caller's newest article.
--
-- lectern_search_words answers what it answered (ASCII punctuation to spaces), with one regular
-- expression of four character ranges instead of translate, which walks its 32-character list for each
-- character of the text: on a 25 KB page, 1.5 ms instead of 12 ms, most of the cost of a save.
CREATE OR REPLACE FUNCTION lectern_search_words(input text) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT regexp_replace(unaccent('unaccent', coalesce(input, '')), '[!-/:-@\[-`{-~]', ' ', 'g') $$;
--> statement-breakpoint
-- The beginnings of 2 to 6 letters of a vector's words, each as a lexeme ending in `*`.
-- array_to_tsvector sorts and removes the duplicates.
CREATE FUNCTION lectern_search_prefixes(words tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array_to_tsvector(ARRAY(
    SELECT left(word, n) || '*' FROM unnest(tsvector_to_array(words)) AS word, generate_series(2, 6) AS n
    WHERE length(word) >= n)) $$;
--> statement-breakpoint
-- The query for a word being typed: its beginning's own lexeme when lectern_search_prefixes indexed it
-- (one word of 2 to 6 letters as the index cuts it), else a prefix match on the words.
CREATE FUNCTION lectern_search_prefix(term text) RETURNS tsquery
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT CASE
      WHEN cardinality(words) = 1 AND length(words[1]) BETWEEN 2 AND 6 THEN quote_literal(words[1] || '*')::tsquery
      ELSE to_tsquery('simple', quote_literal(typed) || ':*')
    END
    FROM (SELECT typed, tsvector_to_array(to_tsvector('simple', typed)) AS words
      FROM (SELECT btrim(lectern_search_words(term)) AS typed) AS t) AS cut $$;
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "search_rank_vector" tsvector;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION lectern_article_search_vector() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  heading tsvector :=
    lectern_search_field(NEW.title, 'A') ||
    lectern_search_field(NEW.tags_text, 'B') ||
    lectern_search_field(NEW.description, 'B') ||
    lectern_search_field(NEW.author, 'C') ||
    lectern_search_field(NEW.url, 'C');
  words tsvector := strip(heading) || strip(lectern_search_field(NEW.content_text, 'D'));
BEGIN
  NEW.search_vector := words || lectern_search_prefixes(words);
  NEW.search_rank_vector := heading || lectern_search_field(left(NEW.content_text, 600), 'D');
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Inline (compressed if need be): ranking reads it for up to 500 articles a search.
ALTER TABLE "articles" ALTER COLUMN "search_rank_vector" SET STORAGE MAIN;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
DROP INDEX "articles_search_idx";
--> statement-breakpoint
CREATE INDEX "articles_search_idx" ON "articles" USING gin ("user_id", "seq", "search_vector");
--> statement-breakpoint
CREATE INDEX "articles_user_seq_idx" ON "articles" ("user_id", "seq");
--> statement-breakpoint
-- The owner's newest `wanted` articles matching `match`, newest first. They are looked for among the
-- owner's articles of the last 1,000 seq back from `newest`, their newest article's (then 4,000 or 16,000:
-- the spans given), then among all: the first window
-- holding `wanted` matches answers, since every match outside it is older. A window is a seq range, so any
-- range answers right; one reader's articles interleaved with others' only make the windows hold fewer of
-- theirs, and the search over all answers more often. After a window that falls short, the next tried is
-- the one its rate of matches says will do (each window costs a scan of the index), else the search over
-- all: a rare word goes there after one window.
-- The planner must take the GIN index, which answers without reading a vector: plain index scans are off,
-- else with a seq range and ORDER BY seq it walks the primary key backwards, and generic plans always,
-- else knowing the values it scans (user_id, seq) and tests each row: both read every row's whole vector,
-- a hundred times slower. Bitmap scans of other indexes look costlier to it without the values.
-- ROWS: at most `wanted` (500), so that the caller reads their rows by the primary key, not the table whole.
CREATE FUNCTION lectern_newest_matches(owner text, match tsquery, newest bigint, spans integer[], wanted integer)
  RETURNS TABLE (seq bigint, created_at text)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  ROWS 500
  SET enable_indexscan = off
  SET plan_cache_mode = force_generic_plan
  AS $$
DECLARE
  next integer := 1;
  span integer;
  found integer;
  seqs bigint[];
  dates text[];
BEGIN
  IF newest IS NULL THEN RETURN; END IF;
  WHILE next <= cardinality(spans) LOOP
    span := spans[next];
    EXIT WHEN newest <= span; -- the window would hold every article: the search over all reads no more
    SELECT array_agg(m.seq ORDER BY m.seq DESC), array_agg(m.created_at ORDER BY m.seq DESC) INTO seqs, dates
      FROM (SELECT a.seq, a.created_at FROM articles a
        WHERE a.user_id = owner AND a.seq > newest - span AND a.search_vector @@ match
        ORDER BY a.seq DESC LIMIT wanted) m;
    found := coalesce(cardinality(seqs), 0);
    IF found >= wanted THEN
      RETURN QUERY SELECT * FROM unnest(seqs, dates);
      RETURN;
    END IF;
    EXIT WHEN found = 0;
    -- The next window tried is the first wide enough for `wanted` at this window's rate of matches, with a
    -- quarter to spare; none is: the search over all.
    next := next + 1;
    WHILE next <= cardinality(spans) AND spans[next] < span * wanted * 1.25 / found LOOP
      next := next + 1;
    END LOOP;
  END LOOP;
  RETURN QUERY SELECT a.seq, a.created_at FROM articles a
    WHERE a.user_id = owner AND a.search_vector @@ match
    ORDER BY a.seq DESC LIMIT wanted;
END $$;
--> statement-breakpoint
-- The articles saved before: the trigger computes both vectors again (the change feed records nothing
-- outside the server's transactions, and updated_at is left as it is).
UPDATE "articles" SET "content_text" = "content_text";
