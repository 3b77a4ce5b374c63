CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`secret_hash` text NOT NULL,
	`status` text NOT NULL,
	`product_type` text NOT NULL,
	`length_mm` real NOT NULL,
	`width_mm` real NOT NULL,
	`gap_mm` real NOT NULL,
	`thickness_mm` real NOT NULL,
	`size_input` text NOT NULL,
	`attribution` text,
	`price` text NOT NULL,
	`idempotency_key_hash` text,
	`request_hash` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`declined_at` integer,
	`cancelled_at` integer,
	`approval_token` text,
	`approval_status` text,
	`current_submission_no` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_idempotency_key_hash_unique` ON `jobs` (`idempotency_key_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_approval_token_unique` ON `jobs` (`approval_token`);--> statement-breakpoint
CREATE INDEX `jobs_expires_at` ON `jobs` (`expires_at`);--> statement-breakpoint
CREATE TABLE `rate_hits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bucket` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_hits_bucket_at` ON `rate_hits` (`bucket`,`at`);--> statement-breakpoint
CREATE INDEX `rate_hits_at` ON `rate_hits` (`at`);--> statement-breakpoint
CREATE TABLE `server_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `submissions` (
	`job_id` text NOT NULL,
	`no` integer NOT NULL,
	`status` text NOT NULL,
	`sha256` text NOT NULL,
	`counted` integer DEFAULT false NOT NULL,
	`validation` text,
	`geometry` text,
	`cutouts_svg` text,
	`preview_svg` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	`duration_ms` integer,
	PRIMARY KEY(`job_id`, `no`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `submissions_job_sha` ON `submissions` (`job_id`,`sha256`);