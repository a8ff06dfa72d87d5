CREATE TABLE `telemetry_journal_0` (
	`id` integer PRIMARY KEY NOT NULL,
	`round` integer NOT NULL,
	`points` integer NOT NULL,
	`series` blob NOT NULL,
	`ts` blob NOT NULL,
	`num` blob NOT NULL,
	`has_num` blob NOT NULL,
	`texts` text
);
--> statement-breakpoint
CREATE TABLE `telemetry_journal_1` (
	`id` integer PRIMARY KEY NOT NULL,
	`round` integer NOT NULL,
	`points` integer NOT NULL,
	`series` blob NOT NULL,
	`ts` blob NOT NULL,
	`num` blob NOT NULL,
	`has_num` blob NOT NULL,
	`texts` text
);
