CREATE TABLE `telemetry_writer_state` (
	`writer` text PRIMARY KEY NOT NULL,
	`rollup_generation` integer NOT NULL,
	`updated_at` integer NOT NULL
);
