ALTER TABLE `mqtt_retained` ADD `holder` text;--> statement-breakpoint
ALTER TABLE `mqtt_retained` ADD `tenant` text;