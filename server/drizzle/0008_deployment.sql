CREATE TABLE `deployment` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
