CREATE TABLE "webhook_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"analysis_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_secrets" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"start" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_analysis_id_analysis_jobs_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analysis_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_analysis_idx" ON "webhook_attempts" USING btree ("analysis_id");--> statement-breakpoint
ALTER TABLE "webhook_secrets" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "webhook_secrets" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "webhook_secrets"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "webhook_attempts" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "webhook_attempts"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
