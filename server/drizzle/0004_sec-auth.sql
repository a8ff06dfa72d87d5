CREATE TABLE `retired_refresh_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`principal_id` integer NOT NULL,
	`app_id` integer NOT NULL,
	`family` text NOT NULL,
	`retired_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `retired_refresh_tokens_owner` ON `retired_refresh_tokens` (`kind`,`principal_id`,`app_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `refresh_family` text;--> statement-breakpoint
ALTER TABLE `refresh_tokens` ADD `family` text DEFAULT '' NOT NULL;