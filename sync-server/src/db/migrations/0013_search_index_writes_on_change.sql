-- The search index is written only when what it holds changed. An UPDATE naming an indexed column fired
-- these triggers even when the value was the same: every such write of an article dropped its whole body
-- from articles_fts and added it again, and every write naming its title rewrote the index row of each of
-- its highlights (an article with tens of thousands of highlights held the database for half a minute).
-- PostgreSQL's triggers have asked whether the value changed from the start (postgres 0001).
DROP TRIGGER IF EXISTS `articles_fts_after_update`;
--> statement-breakpoint
CREATE TRIGGER `articles_fts_after_update` AFTER UPDATE OF `title`, `description`, `author`, `url`, `content_text`, `tags_text` ON `articles`
WHEN old.`title` IS NOT new.`title` OR old.`description` IS NOT new.`description` OR old.`author` IS NOT new.`author`
  OR old.`url` IS NOT new.`url` OR old.`content_text` IS NOT new.`content_text` OR old.`tags_text` IS NOT new.`tags_text`
BEGIN
  INSERT INTO `articles_fts` (`articles_fts`, rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`, `user_id`)
  VALUES ('delete', old.`seq`, old.`title`, old.`description`, old.`author`, old.`url`, old.`content_text`, old.`tags_text`, old.`user_id`);
  INSERT INTO `articles_fts` (rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`, `user_id`)
  VALUES (new.`seq`, new.`title`, new.`description`, new.`author`, new.`url`, new.`content_text`, new.`tags_text`, new.`user_id`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `highlights_fts_article_title`;
--> statement-breakpoint
CREATE TRIGGER `highlights_fts_article_title` AFTER UPDATE OF `title` ON `articles`
WHEN old.`title` IS NOT new.`title`
BEGIN
  UPDATE `highlights_fts` SET `article_title` = new.`title`
  WHERE rowid IN (SELECT `seq` FROM `highlights` WHERE `article_id` = new.`id`);
END;
