-- Search within its latency target at 50,000 articles (issues 15/16: p95 <= 15 ms through the server;
-- 15.7 to 20.0 ms measured on 3 December), by finding a search's newest 500 matches without the articles'
-- rows (bench/postgres-search-bench.ts).
--
-- A match found in the GIN index is then read from its row for its seq and date. An article's row, with
-- its ranking vector inline, holds about three to a page: the newest 500 matches of a common word were
-- read from about 620 pages, 0.4 to 4.5 ms of the search's 5.7 to 8.5 in the database. Each article's
-- search vector now lives in a table of its own beside it, with only what finding the newest matches
-- reads (seq, the reader, the date) and the vector out of line (toast_tuple_target: any vector longer
-- than a few words goes to the table's TOAST, where a match that needs no recheck never reads it): about
-- 70 rows to a page, so those 500 matches are on a dozen pages. Its GIN index, built from rows packed in
-- seq order, is smaller too (273 MB against 407 MB for the same entries over the articles' rows). The
-- ranking still reads search_rank_vector from the article's row, as before.
--
-- A node of the version before this one may still be serving while another migrates: its search calls
-- lectern_search_newest, whose body now reads the new table, and ranks from articles.search_rank_vector,
-- which stays; its saves go through the triggers below. Nothing it runs reads articles.search_vector.
CREATE TABLE "article_search_vectors" (
  "seq" bigint PRIMARY KEY REFERENCES "articles" ("seq") ON DELETE CASCADE,
  "user_id" text NOT NULL,
  "created_at" text NOT NULL,
  "search_vector" tsvector NOT NULL
) WITH (toast_tuple_target = 128);
--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "article_search_vectors" ALTER COLUMN "search_vector" SET COMPRESSION lz4;
EXCEPTION WHEN OTHERS THEN NULL;
END $$;
--> statement-breakpoint
-- The vector an article is matched on: every word of its fields (no positions or weights: strip) and the
-- beginnings of 2 to 6 letters of each (0003), as articles.search_vector held it.
CREATE FUNCTION lectern_article_match_vector(article articles) RETURNS tsvector
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  AS $$
DECLARE
  words tsvector :=
    strip(lectern_search_field(article.title, 'A')) ||
    strip(lectern_search_field(article.tags_text, 'B')) ||
    strip(lectern_search_field(article.description, 'B')) ||
    strip(lectern_search_field(article.author, 'C')) ||
    strip(lectern_search_field(article.url, 'C')) ||
    strip(lectern_search_field(article.content_text, 'D'));
BEGIN
  RETURN words || lectern_search_prefixes(words);
END $$;
--> statement-breakpoint
-- Before the row is written: the ranking's vector, inline in the row (0003).
CREATE OR REPLACE FUNCTION lectern_article_search_vector() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW.search_rank_vector :=
    lectern_search_field(NEW.title, 'A') ||
    lectern_search_field(NEW.tags_text, 'B') ||
    lectern_search_field(NEW.description, 'B') ||
    lectern_search_field(NEW.author, 'C') ||
    lectern_search_field(NEW.url, 'C') ||
    lectern_search_field(left(NEW.content_text, 600), 'D');
  RETURN NEW;
END $$;
--> statement-breakpoint
-- After: the vector a search matches on, with the reader and the date, and the long words it holds for
-- a long word typed (0009, whose trigger this one replaces). A write of the date alone (a URL saved again
-- comes back to the top) writes the date only.
CREATE FUNCTION lectern_article_search_match() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  words tsvector;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.title IS NOT DISTINCT FROM OLD.title
      AND NEW.tags_text IS NOT DISTINCT FROM OLD.tags_text
      AND NEW.description IS NOT DISTINCT FROM OLD.description
      AND NEW.author IS NOT DISTINCT FROM OLD.author
      AND NEW.url IS NOT DISTINCT FROM OLD.url
      AND NEW.content_text IS NOT DISTINCT FROM OLD.content_text THEN
    UPDATE "article_search_vectors" SET "created_at" = NEW.created_at
      WHERE "seq" = NEW.seq AND "created_at" IS DISTINCT FROM NEW.created_at;
    RETURN NULL;
  END IF;
  words := lectern_article_match_vector(NEW);
  INSERT INTO "article_search_vectors" ("seq", "user_id", "created_at", "search_vector")
    VALUES (NEW.seq, NEW.user_id, NEW.created_at, words)
    ON CONFLICT ("seq") DO UPDATE SET "created_at" = EXCLUDED.created_at, "search_vector" = EXCLUDED.search_vector;
  PERFORM lectern_keep_search_words(words);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The articles saved before. A node of the version before may still be saving: its saves wait here
-- (reads and searches don't), and go through the triggers below once this commits.
LOCK TABLE "articles" IN SHARE MODE;
--> statement-breakpoint
DROP TRIGGER "articles_search_words" ON "articles";
--> statement-breakpoint
DROP FUNCTION lectern_article_search_words();
--> statement-breakpoint
CREATE TRIGGER "articles_search_match"
  AFTER INSERT OR UPDATE OF "title", "description", "author", "url", "content_text", "tags_text", "created_at"
  ON "articles"
  FOR EACH ROW EXECUTE FUNCTION lectern_article_search_match();
--> statement-breakpoint
-- In seq order, so that the newest articles' vectors are on the same pages.
INSERT INTO "article_search_vectors" ("seq", "user_id", "created_at", "search_vector")
  SELECT "seq", "user_id", "created_at", coalesce("search_vector", lectern_article_match_vector("articles"))
  FROM "articles" ORDER BY "seq";
--> statement-breakpoint
CREATE INDEX "article_search_vectors_idx" ON "article_search_vectors" USING gin ("user_id", "seq", "search_vector");
--> statement-breakpoint
-- lectern_search_newest (0008) over the new table, the same answer: the owner's newest `wanted` matches.
CREATE OR REPLACE FUNCTION lectern_search_newest(owner text, match tsquery, newest bigint, first_span integer, wanted integer)
  RETURNS TABLE (seq bigint, created_at text)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  ROWS 500
  SET enable_indexscan = off
  SET plan_cache_mode = force_generic_plan
  AS $$
DECLARE
  span bigint := first_span;
  found integer;
  rate float8;
  seqs bigint[];
  dates text[];
BEGIN
  IF newest IS NULL THEN RETURN; END IF;
  -- A window as wide as the seq of every article reads no less than the search over all.
  WHILE span < newest LOOP
    SELECT array_agg(m.seq ORDER BY m.seq DESC), array_agg(m.created_at ORDER BY m.seq DESC) INTO seqs, dates
      FROM (SELECT v.seq, v.created_at FROM article_search_vectors v
        WHERE v.user_id = owner AND v.seq > newest - span AND v.search_vector @@ match
        ORDER BY v.seq DESC LIMIT wanted) m;
    found := coalesce(cardinality(seqs), 0);
    IF found >= wanted THEN
      RETURN QUERY SELECT * FROM unnest(seqs, dates);
      RETURN;
    END IF;
    EXIT WHEN found = 0;
    -- Matches a seq in this window; the next window holds `wanted` at this rate with a quarter to spare.
    rate := found::float8 / span;
    span := ceil(wanted * 1.25 / rate);
    -- Its index range (0.15 a seq) and its rows (1 each) against every match's row, about newest * rate.
    EXIT WHEN span * (0.15 + rate) >= newest * rate;
  END LOOP;
  RETURN QUERY SELECT v.seq, v.created_at FROM article_search_vectors v
    WHERE v.user_id = owner AND v.search_vector @@ match
    ORDER BY v.seq DESC LIMIT wanted;
END $$;
--> statement-breakpoint
-- 0003's windows of fixed sizes, unused since 0008 (by this version and the one before): it read the column
-- dropped below.
DROP FUNCTION lectern_newest_matches(text, tsquery, bigint, integer[], integer);
--> statement-breakpoint
-- Last, as it takes the table from readers until the migration commits. Its index goes with it. The
-- vectors' space is taken back as rows are written again, or at once by `VACUUM FULL articles`.
ALTER TABLE "articles" DROP COLUMN "search_vector";
