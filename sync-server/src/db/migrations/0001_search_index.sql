-- Full-text search (SQLite FTS5), kept in step with its tables by triggers so no write path can forget it.
-- Prefix indexes of 2 to 4 characters keep search-as-you-type fast on the first letters of a word.
-- Articles: an external-content index over the article row itself (rowid = articles.seq). `user_id` is
-- indexed too (weight 0 in the rank), so a search names its owner inside MATCH and the index can walk only
-- that user's matches, newest first, and stop early.
CREATE VIRTUAL TABLE `articles_fts` USING fts5(
  `title`, `description`, `author`, `url`, `content_text`, `tags_text`, `user_id`,
  content='articles', content_rowid='seq', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
--> statement-breakpoint
CREATE TRIGGER `articles_fts_after_insert` AFTER INSERT ON `articles` BEGIN
  INSERT INTO `articles_fts` (rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`, `user_id`)
  VALUES (new.`seq`, new.`title`, new.`description`, new.`author`, new.`url`, new.`content_text`, new.`tags_text`, new.`user_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `articles_fts_after_delete` AFTER DELETE ON `articles` BEGIN
  INSERT INTO `articles_fts` (`articles_fts`, rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`, `user_id`)
  VALUES ('delete', old.`seq`, old.`title`, old.`description`, old.`author`, old.`url`, old.`content_text`, old.`tags_text`, old.`user_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `articles_fts_after_update` AFTER UPDATE OF `title`, `description`, `author`, `url`, `content_text`, `tags_text` ON `articles` BEGIN
  INSERT INTO `articles_fts` (`articles_fts`, rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`, `user_id`)
  VALUES ('delete', old.`seq`, old.`title`, old.`description`, old.`author`, old.`url`, old.`content_text`, old.`tags_text`, old.`user_id`);
  INSERT INTO `articles_fts` (rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`, `user_id`)
  VALUES (new.`seq`, new.`title`, new.`description`, new.`author`, new.`url`, new.`content_text`, new.`tags_text`, new.`user_id`);
END;
--> statement-breakpoint
INSERT INTO `articles_fts` (`articles_fts`, `rank`) VALUES ('rank', 'bm25(10.0, 4.0, 3.0, 2.0, 1.0, 5.0, 0.0)');
--> statement-breakpoint
-- Highlights: their text and their article's title (rowid = highlights.seq).
CREATE VIRTUAL TABLE `highlights_fts` USING fts5(
  `highlighted_text`, `article_title`, tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
--> statement-breakpoint
INSERT INTO `highlights_fts` (`highlights_fts`, `rank`) VALUES ('rank', 'bm25(3.0, 1.0)');
--> statement-breakpoint
CREATE TRIGGER `highlights_fts_after_insert` AFTER INSERT ON `highlights` BEGIN
  INSERT INTO `highlights_fts` (rowid, `highlighted_text`, `article_title`)
  VALUES (new.`seq`, new.`highlighted_text`, (SELECT `title` FROM `articles` WHERE `id` = new.`article_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `highlights_fts_after_delete` AFTER DELETE ON `highlights` BEGIN
  DELETE FROM `highlights_fts` WHERE rowid = old.`seq`;
END;
--> statement-breakpoint
CREATE TRIGGER `highlights_fts_after_update` AFTER UPDATE OF `highlighted_text` ON `highlights` BEGIN
  UPDATE `highlights_fts` SET `highlighted_text` = new.`highlighted_text` WHERE rowid = new.`seq`;
END;
--> statement-breakpoint
CREATE TRIGGER `highlights_fts_article_title` AFTER UPDATE OF `title` ON `articles` BEGIN
  UPDATE `highlights_fts` SET `article_title` = new.`title`
  WHERE rowid IN (SELECT `seq` FROM `highlights` WHERE `article_id` = new.`id`);
END;
