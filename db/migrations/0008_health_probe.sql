CREATE TABLE `health_probe` (
	`id` integer PRIMARY KEY NOT NULL,
	`at` integer NOT NULL
);
