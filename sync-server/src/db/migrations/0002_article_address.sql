ALTER TABLE `articles` ADD `normalized_url` text;--> statement-breakpoint
CREATE INDEX `articles_user_normalized_url_idx` ON `articles` (`user_id`,`normalized_url`);