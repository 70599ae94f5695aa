CREATE TABLE "tool_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"client_id" text NOT NULL,
	"user_id" uuid,
	"tool" text NOT NULL,
	"arguments" jsonb NOT NULL,
	"outcome" text NOT NULL,
	"error" text,
	"duration_ms" real NOT NULL,
	"objects" jsonb NOT NULL,
	"request_id" text
);
--> statement-breakpoint
CREATE INDEX "tool_calls_at_idx" ON "tool_calls" USING btree ("at");