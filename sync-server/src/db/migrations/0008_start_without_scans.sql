-- Start-up reads only what it has to fill: the articles without a normalized address (db/connection.ts) and
-- the tags without a name key (services/tags.ts), none once they ran. Their partial indexes hold just those
-- rows, so a start with 50,000 articles reads two empty indexes instead of every article's address.
-- Lists read an article's fetch_state, fetch_error and images_pending from the other two: those columns come
-- after the body in the row (added by 0005 and 0007), so reading them from the row walks every page of the body.
CREATE INDEX `articles_missing_normalized_url_idx` ON `articles` (`seq`) WHERE "articles"."normalized_url" IS NULL;--> statement-breakpoint
CREATE INDEX `articles_fetch_state_idx` ON `articles` (`seq`,`fetch_state`,`fetch_error`) WHERE "articles"."fetch_state" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `articles_images_pending_idx` ON `articles` (`seq`) WHERE "articles"."images_pending" = 1;--> statement-breakpoint
CREATE INDEX `tags_missing_name_key_idx` ON `tags` (`created_at`,`id`) WHERE "tags"."name_key" IS NULL;