ALTER TABLE `idempotency_keys` ADD `entity` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `entity_id` text;--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);