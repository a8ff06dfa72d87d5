CREATE TABLE `sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`principal_id` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_principal` ON `sessions` (`kind`,`principal_id`);--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`first` text NOT NULL,
	`last` text,
	`email` text NOT NULL,
	`pass_hash` text NOT NULL,
	`tenant_name` text NOT NULL,
	`billing_expires_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_username_unique` ON `tenants` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_email_unique` ON `tenants` (`email`);--> statement-breakpoint
CREATE TABLE `applications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`name` text NOT NULL,
	`domain` text NOT NULL,
	`description` text,
	`timezone` text DEFAULT 'Asia/Jakarta' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `applications_domain_unique` ON `applications` (`domain`);--> statement-breakpoint
CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`first` text NOT NULL,
	`last` text,
	`pass_hash` text NOT NULL,
	`role_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_app_username` ON `accounts` (`app_id`,`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_app_email` ON `accounts` (`app_id`,`email`);