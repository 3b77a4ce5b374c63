CREATE INDEX `jobs_status_cancelled_at` ON `jobs` (`status`,`cancelled_at`);--> statement-breakpoint
CREATE INDEX `jobs_status_expires_at` ON `jobs` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `sessions_expires_at` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE INDEX `submissions_status_created_at` ON `submissions` (`status`,`created_at`);