ALTER TABLE "request_logs" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "request_log_minutes" ADD COLUMN "console" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "request_log_minutes" ADD COLUMN "mcp_errors" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "request_log_minutes" DROP CONSTRAINT "request_log_minutes_minute_method_status_code_pk";--> statement-breakpoint
ALTER TABLE "request_log_minutes" ADD CONSTRAINT "request_log_minutes_minute_method_status_code_console_pk" PRIMARY KEY("minute","method","status_code","console");--> statement-breakpoint
-- The sums told console calls from traffic apart only from now on: summed again from the rows they count.
DELETE FROM "request_log_minutes";--> statement-breakpoint
INSERT INTO "request_log_minutes" ("minute", "method", "status_code", "console", "requests", "duration_ms_sum")
SELECT date_trunc('minute', "at"), "method", "status_code", "path" LIKE '/api/admin/%', count(*), sum("duration_ms") FROM "request_logs" GROUP BY 1, 2, 3, 4;
