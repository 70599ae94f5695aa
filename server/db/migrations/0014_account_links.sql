CREATE TABLE "account_link_requests" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"session_hash" text NOT NULL,
	"integration" text NOT NULL,
	"code_verifier_sealed" text NOT NULL,
	"return_to" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"integration" text NOT NULL,
	"kind" text NOT NULL,
	"account_id" text NOT NULL,
	"display_name" text NOT NULL,
	"email" text,
	"site_url" text,
	"cloud_id" text,
	"scopes" jsonb NOT NULL,
	"secret_sealed" text NOT NULL,
	"access_expires_at" timestamp with time zone,
	"state" text DEFAULT 'working' NOT NULL,
	"problem" text,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_identity" (
	"integration" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"allow_machine_clients" boolean DEFAULT false NOT NULL,
	"allow_api_tokens" boolean DEFAULT false NOT NULL,
	"oauth_client_id" text DEFAULT '' NOT NULL,
	"oauth_secret_sealed" text,
	"oauth_secret_hint" text,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tool_calls" ADD COLUMN "upstream_identity" text;--> statement-breakpoint
ALTER TABLE "account_link_requests" ADD CONSTRAINT "account_link_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_links_user_integration_idx" ON "account_links" USING btree ("user_id","integration");