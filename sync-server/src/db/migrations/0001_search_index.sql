-- Full-text search (SQLite FTS5), kept in step with its tables by triggers so no write path can forget it.
-- Articles: an external-content index over the article row itself (rowid = articles.seq).
CREATE VIRTUAL TABLE `articles_fts` USING fts5(
  `title`, `description`, `author`, `url`, `content_text`, `tags_text`,
  content='articles', content_rowid='seq', tokenize='unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `articles_fts_after_insert` AFTER INSERT ON `articles` BEGIN
  INSERT INTO `articles_fts` (rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`)
  VALUES (new.`seq`, new.`title`, new.`description`, new.`author`, new.`url`, new.`content_text`, new.`tags_text`);
END;
--> statement-breakpoint
CREATE TRIGGER `articles_fts_after_delete` AFTER DELETE ON `articles` BEGIN
  INSERT INTO `articles_fts` (`articles_fts`, rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`)
  VALUES ('delete', old.`seq`, old.`title`, old.`description`, old.`author`, old.`url`, old.`content_text`, old.`tags_text`);
END;
--> statement-breakpoint
CREATE TRIGGER `articles_fts_after_update` AFTER UPDATE OF `title`, `description`, `author`, `url`, `content_text`, `tags_text` ON `articles` BEGIN
  INSERT INTO `articles_fts` (`articles_fts`, rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`)
  VALUES ('delete', old.`seq`, old.`title`, old.`description`, old.`author`, old.`url`, old.`content_text`, old.`tags_text`);
  INSERT INTO `articles_fts` (rowid, `title`, `description`, `author`, `url`, `content_text`, `tags_text`)
  VALUES (new.`seq`, new.`title`, new.`description`, new.`author`, new.`url`, new.`content_text`, new.`tags_text`);
END;
--> statement-breakpoint
-- Highlights: their text and their article's title (rowid = highlights.seq).
CREATE VIRTUAL TABLE `highlights_fts` USING fts5(
  `highlighted_text`, `article_title`, tokenize='unicode61 remove_diacritics 2'
);
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
