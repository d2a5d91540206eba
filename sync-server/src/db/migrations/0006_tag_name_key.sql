DROP INDEX `tags_user_name_unique`;--> statement-breakpoint
ALTER TABLE `tags` ADD `name_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `tags_user_name_key_unique` ON `tags` (`user_id`,`name_key`);