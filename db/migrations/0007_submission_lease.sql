ALTER TABLE `submissions` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `owner_host` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `owner_pid` integer;--> statement-breakpoint
ALTER TABLE `submissions` ADD `lease_until` integer;