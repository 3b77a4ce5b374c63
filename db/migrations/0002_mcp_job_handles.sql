CREATE TABLE `mcp_job_handles` (
	`handle` text PRIMARY KEY NOT NULL,
	`session_key` text NOT NULL,
	`job_id` text NOT NULL,
	`secret_encrypted` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mcp_job_handles_session_job` ON `mcp_job_handles` (`session_key`,`job_id`);--> statement-breakpoint
CREATE INDEX `mcp_job_handles_job` ON `mcp_job_handles` (`job_id`);