ALTER TABLE "request_logs" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "headers" jsonb;--> statement-breakpoint
CREATE INDEX "tool_calls_request_id_idx" ON "tool_calls" USING btree ("request_id");