ALTER TABLE `submissions` ADD `drawing_png` blob;--> statement-breakpoint
ALTER TABLE `submissions` ADD `drawing_source_px` text;