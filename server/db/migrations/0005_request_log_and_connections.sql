CREATE TABLE "request_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status_code" integer NOT NULL,
	"duration_ms" real NOT NULL,
	"client_id" text,
	"user_id" uuid,
	"ip" text,
	"user_agent" text,
	"rpc_method" text,
	"tool_name" text
);
--> statement-breakpoint
CREATE TABLE "sse_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" text NOT NULL,
	"kind" text NOT NULL,
	"client_id" text NOT NULL,
	"user_id" uuid,
	"ip" text,
	"user_agent" text,
	"instance_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_heartbeat" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX "request_logs_at_idx" ON "request_logs" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "sse_connections_connection_id_key" ON "sse_connections" USING btree ("connection_id");--> statement-breakpoint
CREATE INDEX "sse_connections_active_idx" ON "sse_connections" USING btree ("is_active","last_heartbeat");--> statement-breakpoint
CREATE INDEX "sse_connections_created_at_idx" ON "sse_connections" USING btree ("created_at");