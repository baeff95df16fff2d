CREATE TYPE "public"."set_file_status" AS ENUM('uploaded', 'analyzing', 'done', 'failed');--> statement-breakpoint
CREATE TYPE "public"."split_correction_action" AS ENUM('retype', 'split', 'merge', 'reset');--> statement-breakpoint
CREATE TABLE "document_sets" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"presentation_date" date,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "set_files" (
	"id" text PRIMARY KEY NOT NULL,
	"set_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" char(64) NOT NULL,
	"format" text NOT NULL,
	"storage_key" text NOT NULL,
	"status" "set_file_status" DEFAULT 'uploaded' NOT NULL,
	"error_detail" text,
	"page_count" integer,
	"analysis_id" text,
	"pages" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "set_files_sha256_hex" CHECK ("set_files"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "split_corrections" (
	"id" text PRIMARY KEY NOT NULL,
	"set_file_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"action" "split_correction_action" NOT NULL,
	"split_index" integer,
	"page" integer,
	"document_type" text,
	"layout" jsonb NOT NULL,
	"result" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_sets" ADD CONSTRAINT "document_sets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_sets" ADD CONSTRAINT "document_sets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "set_files" ADD CONSTRAINT "set_files_set_id_document_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."document_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "set_files" ADD CONSTRAINT "set_files_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "set_files" ADD CONSTRAINT "set_files_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_corrections" ADD CONSTRAINT "split_corrections_set_file_id_set_files_id_fk" FOREIGN KEY ("set_file_id") REFERENCES "public"."set_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_corrections" ADD CONSTRAINT "split_corrections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_corrections" ADD CONSTRAINT "split_corrections_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_sets_organization_idx" ON "document_sets" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "set_files_set_idx" ON "set_files" USING btree ("set_id","created_at");--> statement-breakpoint
CREATE INDEX "set_files_organization_idx" ON "set_files" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "split_corrections_file_idx" ON "split_corrections" USING btree ("set_file_id","created_at");