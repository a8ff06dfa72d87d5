CREATE TABLE `mqtt_queued` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_id` text NOT NULL,
	`topic` text NOT NULL,
	`payload` blob NOT NULL,
	`qos` integer NOT NULL,
	`properties` text,
	`expires_at` integer
);
--> statement-breakpoint
CREATE INDEX `mqtt_queued_client` ON `mqtt_queued` (`client_id`,`id`);--> statement-breakpoint
CREATE TABLE `mqtt_retained` (
	`topic` text PRIMARY KEY NOT NULL,
	`payload` blob NOT NULL,
	`qos` integer NOT NULL,
	`properties` text,
	`expires_at` integer
);
--> statement-breakpoint
CREATE TABLE `mqtt_sessions` (
	`client_id` text PRIMARY KEY NOT NULL,
	`identity_key` text NOT NULL,
	`subscriptions` text NOT NULL,
	`expires_at` integer NOT NULL
);
