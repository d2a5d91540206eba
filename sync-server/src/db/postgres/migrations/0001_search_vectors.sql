-- Full-text search on PostgreSQL: the fields and weights of SQLite's FTS5 indexes (migrations 0001, 0004,
-- 0009 of the SQLite schema), as a tsvector column per searched table with a GIN index, kept in step by
-- triggers so no write path can forget it. The columns are not in the drizzle schema (as the FTS5 tables
-- are not in SQLite's): no service reads them except the search (db/postgres/search.ts).
--
-- Words are cut as FTS5's unicode61 tokenizer (remove_diacritics 2) cuts them, and as the app's and the
-- server's searchTerms (shared-schema) cut a query: runs of letters and digits, lowercased, diacritics
-- removed; everything else separates words. The 'simple' configuration lowercases, and neither stems nor
-- drops stop words; unaccent removes the diacritics; ASCII punctuation becomes spaces first, so that
-- PostgreSQL's parser doesn't keep `example.com`, `3.14`, `e-mail` or `/path` whole where FTS5 finds
-- `example`, `com`, `3`, `14`, `e`, `mail` and `path` (other characters that are neither letters nor digits
-- already separate words for the parser). translate, not a regular expression: a saved page's text is up to
-- megabytes, and a regular expression over it cost more than the whole rest of the indexing. Unicode
-- letters count as letters under a UTF-8 ctype (what initdb gives on a UTF-8 system).
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE FUNCTION lectern_search_words(input text) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT translate(unaccent('unaccent', coalesce(input, '')), E'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', repeat(' ', 32)) $$;
--> statement-breakpoint
-- One field's words at one weight. A tsvector holds at most 1 MB of distinct words: a larger text (a page
-- of random tokens) is indexed by its first 250,000 characters rather than refused, which would fail the
-- save. Only texts of a megabyte or more pay for the attempt.
CREATE FUNCTION lectern_search_field(input text, weight "char") RETURNS tsvector
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  AS $$
DECLARE
  words text := lectern_search_words(input);
BEGIN
  IF octet_length(words) < 1000000 THEN
    RETURN setweight(to_tsvector('simple', words), weight);
  END IF;
  BEGIN
    RETURN setweight(to_tsvector('simple', words), weight);
  EXCEPTION WHEN program_limit_exceeded THEN
    RETURN setweight(to_tsvector('simple', left(words, 250000)), weight);
  END;
END $$;
--> statement-breakpoint
-- Articles. FTS5 ranks with bm25(title 10, description 4, author 3, url 2, content_text 1, tags_text 5);
-- a tsvector has four weight classes, so the six fields fall into them in the same order of importance:
-- A title (1.0), B tags and description (0.5), C author and url (0.3), D the text (0.1), the weights the
-- search passes to ts_rank_cd (db/postgres/search.ts, ARTICLE_WEIGHTS).
ALTER TABLE "articles" ADD COLUMN "search_vector" tsvector;
--> statement-breakpoint
CREATE FUNCTION lectern_article_search_vector() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW.search_vector :=
    lectern_search_field(NEW.title, 'A') ||
    lectern_search_field(NEW.tags_text, 'B') ||
    lectern_search_field(NEW.description, 'B') ||
    lectern_search_field(NEW.author, 'C') ||
    lectern_search_field(NEW.url, 'C') ||
    lectern_search_field(NEW.content_text, 'D');
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Only writes of a searched field recompute it: marking an article read leaves its index alone.
CREATE TRIGGER "articles_search_vector"
  BEFORE INSERT OR UPDATE OF "title", "description", "author", "url", "content_text", "tags_text" ON "articles"
  FOR EACH ROW EXECUTE FUNCTION lectern_article_search_vector();
--> statement-breakpoint
CREATE INDEX "articles_search_idx" ON "articles" USING gin ("search_vector");
--> statement-breakpoint
-- A search ranks up to 500 matching articles, reading each one's vector (about the size of its text):
-- lz4 decompresses them several times faster than the default pglz. A server built without lz4 keeps pglz.
DO $$ BEGIN
  ALTER TABLE "articles" ALTER COLUMN "search_vector" SET COMPRESSION lz4;
EXCEPTION WHEN OTHERS THEN NULL;
END $$;
--> statement-breakpoint
-- Highlights: their text and their article's title, bm25(3, 1) in FTS5: A the text (1.0), B the title (0.33).
ALTER TABLE "highlights" ADD COLUMN "search_vector" tsvector;
--> statement-breakpoint
CREATE FUNCTION lectern_highlight_search_vector(highlighted_text text, article_title text) RETURNS tsvector
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT lectern_search_field(highlighted_text, 'A') || lectern_search_field(article_title, 'B') $$;
--> statement-breakpoint
CREATE FUNCTION lectern_highlight_search_vector_row() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW.search_vector := lectern_highlight_search_vector(
    NEW.highlighted_text, (SELECT "title" FROM "articles" WHERE "id" = NEW.article_id));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "highlights_search_vector"
  BEFORE INSERT OR UPDATE OF "highlighted_text", "article_id" ON "highlights"
  FOR EACH ROW EXECUTE FUNCTION lectern_highlight_search_vector_row();
--> statement-breakpoint
-- An article's new title is in its highlights' index at once, as FTS5's highlights_fts_article_title did.
CREATE FUNCTION lectern_article_title_in_highlights() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE "highlights" SET "search_vector" = lectern_highlight_search_vector("highlighted_text", NEW.title)
    WHERE "article_id" = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "articles_title_in_highlights"
  AFTER UPDATE OF "title" ON "articles"
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title)
  EXECUTE FUNCTION lectern_article_title_in_highlights();
--> statement-breakpoint
CREATE INDEX "highlights_search_idx" ON "highlights" USING gin ("search_vector");
