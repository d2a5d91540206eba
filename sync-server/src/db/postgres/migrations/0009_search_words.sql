-- Search within its latency target at 50,000 articles (issues 15/16: p95 <= 15 ms over HTTP; 18.3 ms
-- measured): a whole word typed last costs as much as the word itself, not as every word it begins.
--
-- The last word typed is a prefix. Beginnings of up to 6 letters are lexemes of their own (0003); a longer
-- one was a prefix match (`besdrafu:*`), for which GIN collects every entry of every word that begins so,
-- for the whole database, into a bitmap before the caller's window of seq can narrow it: 14.4 ms for a word
-- in 39,206 of the bench's 50,000 articles, against 1.9 ms for the same word as one lexeme, whose entry GIN
-- reads only as far as the window. SQLite answers the same case from its index's vocabulary (FTS5's
-- fts5vocab: services/search-sqlite.ts). PostgreSQL has no way to read a GIN index's words, so they are kept
-- here: search_words holds every word of more than 6 letters any article's search_vector holds, and a
-- long last word becomes the words it begins, OR'ed, when there are at most 64 of them (else the prefix
-- match as before, which is then no slower: the words are many and each rarer).
--
-- Written by a trigger beside the one that writes the vectors, so no write path can forget it, and only
-- with the words it lacks: no unique index, so two transactions that meet a new word at once never wait
-- for each other (an import's batch of 500 articles and another reader's save, each holding words the
-- other needs, would deadlock with one); a word so met twice is stored twice, and read once (DISTINCT).
-- Words are never taken out: a word no article holds any more matches nothing, as the entries a GIN index
-- keeps for its deleted rows until it is rebuilt. Words only, no reader: what a search finds is still only
-- the caller's.
CREATE TABLE "search_words" ("word" text COLLATE "C" NOT NULL);
--> statement-breakpoint
CREATE INDEX "search_words_word_idx" ON "search_words" ("word");
--> statement-breakpoint
-- The words of a vector of more than 6 letters that search_words does not hold yet (not the beginnings
-- 0003 adds: lexemes of 3 to 7 characters ending in `*`, which no word does).
CREATE FUNCTION lectern_keep_search_words(words tsvector) RETURNS void
  LANGUAGE sql VOLATILE
  AS $$ INSERT INTO search_words (word)
    SELECT word FROM unnest(tsvector_to_array(words)) AS word
    WHERE length(word) > 6 AND right(word, 1) <> '*'
      AND NOT EXISTS (SELECT FROM search_words kept WHERE kept.word = word.word COLLATE "C") $$;
--> statement-breakpoint
CREATE FUNCTION lectern_article_search_words() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM lectern_keep_search_words(NEW.search_vector);
  RETURN NEW;
END $$;
--> statement-breakpoint
-- On the writes that write the vector, after articles_search_vector (a row's triggers of one kind fire in
-- the order of their names), so it reads the vector just written.
CREATE TRIGGER "articles_search_words"
  BEFORE INSERT OR UPDATE OF "title", "description", "author", "url", "content_text", "tags_text" ON "articles"
  FOR EACH ROW EXECUTE FUNCTION lectern_article_search_words();
--> statement-breakpoint
-- The query for a long word being typed (more than 6 letters, as the index cuts it): the words it begins,
-- OR'ed, when search_words holds 1 to 64 of them; else the prefix match. The words that begin so are the
-- first from the word itself in the index's order (C, bytes): the 65 first distinct words from there hold
-- them all when there are 64 or fewer, followed by words that don't begin so.
CREATE FUNCTION lectern_search_completions(typed text) RETURNS tsquery
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT CASE
      WHEN count(*) BETWEEN 1 AND 64 THEN string_agg(quote_literal(found.word), ' | ')::tsquery
      ELSE to_tsquery('simple', quote_literal(typed) || ':*')
    END
    FROM (SELECT DISTINCT kept.word FROM search_words kept WHERE kept.word >= typed COLLATE "C"
      ORDER BY kept.word LIMIT 65) AS found
    WHERE starts_with(found.word, typed) $$;
--> statement-breakpoint
-- The query for a word being typed: its beginning's own lexeme when lectern_search_prefixes indexed it
-- (one word of 2 to 6 letters as the index cuts it), the words it begins when it is one longer word, else a
-- prefix match on the words.
CREATE OR REPLACE FUNCTION lectern_search_prefix(term text) RETURNS tsquery
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT CASE
      WHEN cardinality(words) = 1 AND length(words[1]) BETWEEN 2 AND 6 THEN quote_literal(words[1] || '*')::tsquery
      WHEN cardinality(words) = 1 AND length(words[1]) > 6 THEN lectern_search_completions(words[1])
      ELSE to_tsquery('simple', quote_literal(typed) || ':*')
    END
    FROM (SELECT typed, tsvector_to_array(to_tsvector('simple', typed)) AS words
      FROM (SELECT btrim(lectern_search_words(term)) AS typed) AS t) AS cut $$;
--> statement-breakpoint
-- The words of the articles saved before. A node of the version before may still be saving: its saves wait
-- here (reads don't), else an article committed while the words are read would keep none, since this
-- transaction's trigger is seen by others only once it commits. About a minute for 50,000 articles.
LOCK TABLE "articles" IN SHARE MODE;
--> statement-breakpoint
INSERT INTO "search_words" ("word")
  SELECT DISTINCT word FROM "articles", unnest(tsvector_to_array("search_vector")) AS word
  WHERE length(word) > 6 AND right(word, 1) <> '*';
