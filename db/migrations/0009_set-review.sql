CREATE TYPE "public"."finding_decision" AS ENUM('accept', 'waive', 'reopen');--> statement-breakpoint
CREATE TABLE "document_reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"set_file_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"pages_key" text NOT NULL,
	"reviewed" integer NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "field_corrections" (
	"id" text PRIMARY KEY NOT NULL,
	"set_file_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"pages_key" text NOT NULL,
	"field" text NOT NULL,
	"value" jsonb,
	"original" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finding_decisions" (
	"id" text PRIMARY KEY NOT NULL,
	"set_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"finding_key" text NOT NULL,
	"decision" "finding_decision" NOT NULL,
	"note" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_reviews" ADD CONSTRAINT "document_reviews_set_file_id_set_files_id_fk" FOREIGN KEY ("set_file_id") REFERENCES "public"."set_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_reviews" ADD CONSTRAINT "document_reviews_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_reviews" ADD CONSTRAINT "document_reviews_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_corrections" ADD CONSTRAINT "field_corrections_set_file_id_set_files_id_fk" FOREIGN KEY ("set_file_id") REFERENCES "public"."set_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_corrections" ADD CONSTRAINT "field_corrections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_corrections" ADD CONSTRAINT "field_corrections_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_decisions" ADD CONSTRAINT "finding_decisions_set_id_document_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."document_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_decisions" ADD CONSTRAINT "finding_decisions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_decisions" ADD CONSTRAINT "finding_decisions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_reviews_file_idx" ON "document_reviews" USING btree ("set_file_id","created_at");--> statement-breakpoint
CREATE INDEX "field_corrections_file_idx" ON "field_corrections" USING btree ("set_file_id","created_at");--> statement-breakpoint
CREATE INDEX "finding_decisions_set_idx" ON "finding_decisions" USING btree ("set_id","created_at");