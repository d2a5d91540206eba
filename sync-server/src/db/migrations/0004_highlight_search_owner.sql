-- Highlight search names its owner inside MATCH, as article search does (0001): the owner's id is indexed
-- (weight 0 in the rank), so a search walks and ranks only the caller's matches instead of ranking every
-- user's and filtering afterwards. The index is rebuilt with the new column from the highlights it covers.
DROP TRIGGER IF EXISTS `highlights_fts_after_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `highlights_fts_after_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `highlights_fts_after_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `highlights_fts_article_title`;
--> statement-breakpoint
DROP TABLE IF EXISTS `highlights_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `highlights_fts` USING fts5(
  `highlighted_text`, `article_title`, `user_id`, tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
--> statement-breakpoint
INSERT INTO `highlights_fts` (`highlights_fts`, `rank`) VALUES ('rank', 'bm25(3.0, 1.0, 0.0)');
--> statement-breakpoint
INSERT INTO `highlights_fts` (rowid, `highlighted_text`, `article_title`, `user_id`)
  SELECT h.`seq`, h.`highlighted_text`, a.`title`, h.`user_id`
  FROM `highlights` h JOIN `articles` a ON a.`id` = h.`article_id`;
--> statement-breakpoint
CREATE TRIGGER `highlights_fts_after_insert` AFTER INSERT ON `highlights` BEGIN
  INSERT INTO `highlights_fts` (rowid, `highlighted_text`, `article_title`, `user_id`)
  VALUES (new.`seq`, new.`highlighted_text`, (SELECT `title` FROM `articles` WHERE `id` = new.`article_id`), new.`user_id`);
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
