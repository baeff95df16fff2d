CREATE TABLE "learned_layouts" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"document_type" text NOT NULL,
	"issuer" text NOT NULL,
	"fingerprint_id" text NOT NULL,
	"fingerprint" jsonb NOT NULL,
	"fields" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "learned_layouts" ADD CONSTRAINT "learned_layouts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learned_layouts" ADD CONSTRAINT "learned_layouts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "learned_layouts_organization_idx" ON "learned_layouts" USING btree ("organization_id","document_type");--> statement-breakpoint
ALTER TABLE "learned_layouts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "learned_layouts" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "learned_layouts"
  USING (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true))
  WITH CHECK (coalesce(current_setting('app.organization_id', true), '') = '' OR "organization_id" = current_setting('app.organization_id', true));
