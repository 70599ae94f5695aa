ALTER TABLE "account_link_requests" ADD COLUMN "server" text;--> statement-breakpoint
ALTER TABLE "account_link_requests" ADD COLUMN "carried_sealed" text;--> statement-breakpoint
ALTER TABLE "integration_identity" ADD COLUMN "confluence_oauth_client_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "integration_identity" ADD COLUMN "confluence_oauth_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "integration_identity" ADD COLUMN "confluence_oauth_secret_hint" text;