CREATE TABLE `rule_states` (
	`rule_id` integer NOT NULL,
	`device_id` integer NOT NULL,
	`phase` text NOT NULL,
	`since` integer NOT NULL,
	`due` integer,
	`value` text,
	`last_fire_ts` integer,
	PRIMARY KEY(`rule_id`, `device_id`),
	FOREIGN KEY (`rule_id`) REFERENCES `rules`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`name` text NOT NULL,
	`key` text,
	`category` integer NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`condition` text NOT NULL,
	`action` text NOT NULL,
	`details` text DEFAULT '{}' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rules_app_key` ON `rules` (`app_id`,`key`) WHERE "rules"."key" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`rule_id` integer,
	`rule_name` text,
	`category` integer NOT NULL,
	`device_id` integer DEFAULT 0 NOT NULL,
	`device_name` text,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`open` integer DEFAULT true NOT NULL,
	`notification_active` integer DEFAULT true NOT NULL,
	`occurrences` integer DEFAULT 1 NOT NULL,
	`last_value` text,
	`first_ts` integer NOT NULL,
	`last_ts` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_open_rule_device` ON `tasks` (`rule_id`,`device_id`) WHERE "tasks"."open" = 1;--> statement-breakpoint
CREATE INDEX `tasks_app_updated` ON `tasks` (`app_id`,`updated_at`);