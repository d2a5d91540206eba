-- The change feed's record of written rows on PostgreSQL: SQLite's TEMP triggers (db/change-set.ts, TRACKED)
-- as one trigger function per tracked table, with the same columns and owner rules. They write into the
-- session's temporary table `written_rows`, which the server's transactions create
-- (db/postgres/connection.ts) and which empties at each commit; a session without it (psql, a migration,
-- another program) writes as before and records nothing. A temporary table takes part in the transaction
-- like any other, so a rolled-back transaction or savepoint leaves nothing behind.
CREATE FUNCTION lectern_written_articles() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  r record;
BEGIN
  IF to_regclass('pg_temp.written_rows') IS NULL THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO pg_temp.written_rows (tbl, op, user_id, id) VALUES ('articles', lower(TG_OP), r.user_id, r.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "written_articles" AFTER INSERT OR UPDATE OR DELETE ON "articles"
  FOR EACH ROW EXECUTE FUNCTION lectern_written_articles();
--> statement-breakpoint
-- A highlight's row carries its article's title and image (article_title, article_image): a new title
-- (an imported page fetched) or image (archived on the server) changes every highlight of the article.
CREATE FUNCTION lectern_written_article_heading() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF to_regclass('pg_temp.written_rows') IS NULL THEN RETURN NULL; END IF;
  INSERT INTO pg_temp.written_rows (tbl, op, user_id, id) VALUES ('article_heading', 'update', NEW.user_id, NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "written_articles_heading" AFTER UPDATE OF "title", "image_url" ON "articles"
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.image_url IS DISTINCT FROM NEW.image_url)
  EXECUTE FUNCTION lectern_written_article_heading();
--> statement-breakpoint
CREATE FUNCTION lectern_written_highlights() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  r record;
BEGIN
  IF to_regclass('pg_temp.written_rows') IS NULL THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO pg_temp.written_rows (tbl, op, user_id, id, article_id)
    VALUES ('highlights', lower(TG_OP), r.user_id, r.id, r.article_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "written_highlights" AFTER INSERT OR UPDATE OR DELETE ON "highlights"
  FOR EACH ROW EXECUTE FUNCTION lectern_written_highlights();
--> statement-breakpoint
-- A tag's name_key is filled at start and changes nothing a device sees: only a write of its name counts.
CREATE FUNCTION lectern_written_tags() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  r record;
BEGIN
  IF to_regclass('pg_temp.written_rows') IS NULL THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO pg_temp.written_rows (tbl, op, user_id, id) VALUES ('tags', lower(TG_OP), r.user_id, r.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "written_tags" AFTER INSERT OR DELETE OR UPDATE OF "name" ON "tags"
  FOR EACH ROW EXECUTE FUNCTION lectern_written_tags();
--> statement-breakpoint
-- A link row has no user_id; of its two parents one may be the row being deleted, so either will do.
CREATE FUNCTION lectern_written_article_tags() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  r record;
BEGIN
  IF to_regclass('pg_temp.written_rows') IS NULL THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO pg_temp.written_rows (tbl, op, user_id, article_id, tag_id)
    VALUES ('article_tags', lower(TG_OP),
      coalesce((SELECT user_id FROM articles WHERE id = r.article_id),
               (SELECT user_id FROM tags WHERE id = r.tag_id)),
      r.article_id, r.tag_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Link rows are only added and removed.
CREATE TRIGGER "written_article_tags" AFTER INSERT OR DELETE ON "article_tags"
  FOR EACH ROW EXECUTE FUNCTION lectern_written_article_tags();
--> statement-breakpoint
CREATE FUNCTION lectern_written_reading_lists() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  r record;
BEGIN
  IF to_regclass('pg_temp.written_rows') IS NULL THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO pg_temp.written_rows (tbl, op, user_id, id) VALUES ('reading_lists', lower(TG_OP), r.user_id, r.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "written_reading_lists" AFTER INSERT OR UPDATE OR DELETE ON "reading_lists"
  FOR EACH ROW EXECUTE FUNCTION lectern_written_reading_lists();
--> statement-breakpoint
CREATE FUNCTION lectern_written_list_articles() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  r record;
BEGIN
  IF to_regclass('pg_temp.written_rows') IS NULL THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO pg_temp.written_rows (tbl, op, user_id, list_id, article_id)
    VALUES ('list_articles', lower(TG_OP),
      coalesce((SELECT user_id FROM reading_lists WHERE id = r.list_id),
               (SELECT user_id FROM articles WHERE id = r.article_id)),
      r.list_id, r.article_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "written_list_articles" AFTER INSERT OR UPDATE OR DELETE ON "list_articles"
  FOR EACH ROW EXECUTE FUNCTION lectern_written_list_articles();
