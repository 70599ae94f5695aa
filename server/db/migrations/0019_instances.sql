CREATE TABLE "instances" (
	"id" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"hostname" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
