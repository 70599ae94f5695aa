CREATE TABLE "request_log_minutes" (
	"minute" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"status_code" integer NOT NULL,
	"requests" integer NOT NULL,
	"duration_ms_sum" double precision NOT NULL,
	CONSTRAINT "request_log_minutes_minute_method_status_code_pk" PRIMARY KEY("minute","method","status_code")
);
--> statement-breakpoint
-- The rows already logged, summed as the new writes will be.
INSERT INTO "request_log_minutes" ("minute", "method", "status_code", "requests", "duration_ms_sum")
SELECT date_trunc('minute', "at"), "method", "status_code", count(*), sum("duration_ms") FROM "request_logs" GROUP BY 1, 2, 3;
