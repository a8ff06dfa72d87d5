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
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_app_username` ON `accounts` (`app_id`,`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_app_email` ON `accounts` (`app_id`,`email`);--> statement-breakpoint
CREATE INDEX `accounts_role` ON `accounts` (`role_id`);--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`principal_id` integer NOT NULL,
	`app_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_token_hash_unique` ON `refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_owner` ON `refresh_tokens` (`kind`,`principal_id`,`app_id`);--> statement-breakpoint
CREATE TABLE `dashboards` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`label` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`path` text NOT NULL,
	`parent_id` integer,
	`sort` integer DEFAULT 0 NOT NULL,
	`conf_dashboard` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dashboards_app_path` ON `dashboards` (`app_id`,`path`);--> statement-breakpoint
CREATE INDEX `dashboards_app_parent` ON `dashboards` (`app_id`,`parent_id`);--> statement-breakpoint
CREATE TABLE `role_navs` (
	`role_id` integer NOT NULL,
	`dashboard_id` integer NOT NULL,
	`sort` integer NOT NULL,
	PRIMARY KEY(`role_id`, `dashboard_id`),
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`dashboard_id`) REFERENCES `dashboards`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `role_navs_dashboard` ON `role_navs` (`dashboard_id`);--> statement-breakpoint
CREATE TABLE `roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`permissions` text DEFAULT '{}' NOT NULL,
	`sys_navs` text DEFAULT '[]' NOT NULL,
	`descendant` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roles_app_name` ON `roles` (`app_id`,`name`);--> statement-breakpoint
CREATE TABLE `credentials` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`category` integer NOT NULL,
	`credentials_id` text NOT NULL,
	`secret_sealed` text NOT NULL,
	`secret_hash` text NOT NULL,
	`scopes` text DEFAULT '{}' NOT NULL,
	`details` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credentials_app_credentials_id` ON `credentials` (`app_id`,`credentials_id`);--> statement-breakpoint
CREATE TABLE `lora_servers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`mac` text NOT NULL,
	`name` text NOT NULL,
	`server` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lora_servers_app_mac` ON `lora_servers` (`app_id`,`mac`);--> statement-breakpoint
CREATE TABLE `tag_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`category` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tag_categories_app_prefix` ON `tag_categories` (`app_id`,`prefix`);--> statement-breakpoint
CREATE TABLE `tag_definitions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`category_id` integer NOT NULL,
	`name` text NOT NULL,
	`name_lc` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `tag_categories`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tag_definitions_category_name_lc` ON `tag_definitions` (`category_id`,`name_lc`);--> statement-breakpoint
CREATE TABLE `device_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`connected_at` integer,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `device_tokens_hash` ON `device_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`category` integer NOT NULL,
	`category_text` text DEFAULT 'Dummy' NOT NULL,
	`device_type` text NOT NULL,
	`name` text NOT NULL,
	`label` text,
	`serial_number` text NOT NULL,
	`description` text,
	`latitude` real,
	`longitude` real,
	`sensors` text DEFAULT '{}' NOT NULL,
	`tags` text DEFAULT '{}' NOT NULL,
	`firmware_version` text DEFAULT '1.0' NOT NULL,
	`online` integer DEFAULT false NOT NULL,
	`last_online_ts` integer,
	`last_offline_ts` integer,
	`disabled` integer DEFAULT false NOT NULL,
	`uid` text,
	`broker_username` text,
	`broker_password` text,
	`topic` text,
	`token_id` integer,
	`dev_eui` text,
	`network_server_id` integer,
	`details` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`network_server_id`) REFERENCES `lora_servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `devices_app_id` ON `devices` (`app_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `devices_app_serial` ON `devices` (`app_id`,`serial_number`);--> statement-breakpoint
CREATE INDEX `devices_app_online` ON `devices` (`app_id`,`online`);--> statement-breakpoint
CREATE INDEX `devices_app_category` ON `devices` (`app_id`,`category`);--> statement-breakpoint
CREATE INDEX `devices_app_type` ON `devices` (`app_id`,`device_type`);--> statement-breakpoint
CREATE UNIQUE INDEX `devices_uid` ON `devices` (`uid`);--> statement-breakpoint
CREATE UNIQUE INDEX `devices_broker_username` ON `devices` (`broker_username`);--> statement-breakpoint
CREATE UNIQUE INDEX `devices_topic` ON `devices` (`topic`);--> statement-breakpoint
CREATE UNIQUE INDEX `devices_token` ON `devices` (`token_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `devices_app_dev_eui` ON `devices` (`app_id`,`dev_eui`);--> statement-breakpoint
CREATE INDEX `devices_network_server` ON `devices` (`network_server_id`);--> statement-breakpoint
CREATE TABLE `gateway_sightings` (
	`uid` text PRIMARY KEY NOT NULL,
	`first_ts` integer NOT NULL,
	`last_ts` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `telemetry_points` (
	`series_id` integer NOT NULL,
	`ts` integer NOT NULL,
	`num` real,
	`text` text,
	PRIMARY KEY(`series_id`, `ts`)
);
--> statement-breakpoint
CREATE TABLE `telemetry_rollup_hour` (
	`series_id` integer NOT NULL,
	`bucket_ts` integer NOT NULL,
	`count` integer NOT NULL,
	`sum` real NOT NULL,
	`min` real NOT NULL,
	`max` real NOT NULL,
	`first` real NOT NULL,
	`first_ts` integer NOT NULL,
	`last` real NOT NULL,
	`last_ts` integer NOT NULL,
	PRIMARY KEY(`series_id`, `bucket_ts`)
);
--> statement-breakpoint
CREATE TABLE `telemetry_rollup_minute` (
	`series_id` integer NOT NULL,
	`bucket_ts` integer NOT NULL,
	`count` integer NOT NULL,
	`sum` real NOT NULL,
	`min` real NOT NULL,
	`max` real NOT NULL,
	`first` real NOT NULL,
	`first_ts` integer NOT NULL,
	`last` real NOT NULL,
	`last_ts` integer NOT NULL,
	PRIMARY KEY(`series_id`, `bucket_ts`)
);
--> statement-breakpoint
CREATE TABLE `telemetry_series` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`device_id` integer NOT NULL,
	`sensor` text NOT NULL,
	`configtype` text NOT NULL,
	`param` text NOT NULL,
	`subparam` text DEFAULT '' NOT NULL,
	`datatype` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `telemetry_series_key` ON `telemetry_series` (`device_id`,`sensor`,`configtype`,`param`,`subparam`);--> statement-breakpoint
CREATE INDEX `telemetry_series_app` ON `telemetry_series` (`app_id`,`device_id`);--> statement-breakpoint
CREATE TABLE `device_state_history` (
	`device_id` integer NOT NULL,
	`key` text NOT NULL,
	`initial_ts` integer NOT NULL,
	`value` text,
	`latest_ts` integer NOT NULL,
	PRIMARY KEY(`device_id`, `key`, `initial_ts`)
);
--> statement-breakpoint
CREATE TABLE `device_states` (
	`device_id` integer NOT NULL,
	`app_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` text,
	`initial_ts` integer NOT NULL,
	`latest_ts` integer NOT NULL,
	PRIMARY KEY(`device_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `device_states_app` ON `device_states` (`app_id`,`device_id`);--> statement-breakpoint
CREATE TABLE `sensor_settings` (
	`device_id` integer NOT NULL,
	`key` text NOT NULL,
	`policies` text DEFAULT '{}' NOT NULL,
	`tags` text DEFAULT '{}' NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`device_id`, `key`),
	FOREIGN KEY (`device_id`) REFERENCES `devices`(`id`) ON UPDATE no action ON DELETE cascade
);
