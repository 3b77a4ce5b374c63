ALTER TABLE `designs` ADD `size_input` text;--> statement-breakpoint
ALTER TABLE `designs` ADD `gap_mm` real;--> statement-breakpoint
ALTER TABLE `designs` ADD `thickness_mm` real;--> statement-breakpoint
ALTER TABLE `jobs` ADD `decline_reason` text;