-- Search as you type stays fast past four letters: a prefix query FTS5 has no prefix index for merges the
-- whole doclist of every word starting with it (positions included) before it can return one row, so its
-- cost grew with the library (over 100 ms at 50,000 articles for a 6-letter prefix). Prefix indexes of 5 and
-- 6 letters make those a single doclist read lazily, newest first; longer prefixes match few words. The
-- article index is the same as 0001's otherwise, and is rebuilt from the articles it covers.
DROP TRIGGER IF EXISTS `articles_fts_after_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `articles_fts_after_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `articles_fts_after_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `articles_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `articles_fts` USING fts5(
  `title`, `description`, `author`, `url`, `content_text`, `tags_text`, `user_id`,
  content='articles', content_rowid='seq', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4 5 6'
);
--> statement-breakpoint
INSERT INTO `articles_fts` (`articles_fts`, `rank`) VALUES ('rank', 'bm25(10.0, 4.0, 3.0, 2.0, 1.0, 5.0, 0.0)');
--> statement-breakpoint
INSERT INTO `articles_fts` (`articles_fts`) VALUES ('rebuild');
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
