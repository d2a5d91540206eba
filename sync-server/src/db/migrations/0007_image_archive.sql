CREATE TABLE `article_images` (
	`article_id` text NOT NULL,
	`hash` text NOT NULL,
	`ext` text NOT NULL,
	`bytes` integer NOT NULL,
	`mime` text NOT NULL,
	PRIMARY KEY(`article_id`, `hash`),
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `article_images_hash_idx` ON `article_images` (`hash`);--> statement-breakpoint
CREATE TABLE `server_markers` (
	`name` text PRIMARY KEY NOT NULL,
	`done_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `articles` ADD `images_pending` integer DEFAULT false NOT NULL;