CREATE TYPE "public"."analysis_job_status" AS ENUM('queued', 'running', 'done', 'failed');--> statement-breakpoint
CREATE TABLE "analysis_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"api_key_id" text,
	"user_id" text,
	"set_file_id" text,
	"storage_key" text NOT NULL,
	"input_name" text,
	"input_bytes" integer NOT NULL,
	"sha256" char(64) NOT NULL,
	"evidence" boolean DEFAULT false NOT NULL,
	"status" "analysis_job_status" DEFAULT 'queued' NOT NULL,
	"error_code" text,
	"error_detail" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"idempotency_key" text,
	"request_hash" char(64),
	"callback_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD CONSTRAINT "analysis_jobs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD CONSTRAINT "analysis_jobs_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD CONSTRAINT "analysis_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD CONSTRAINT "analysis_jobs_set_file_id_set_files_id_fk" FOREIGN KEY ("set_file_id") REFERENCES "public"."set_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analysis_jobs_status_idx" ON "analysis_jobs" USING btree ("status","organization_id");--> statement-breakpoint
CREATE INDEX "analysis_jobs_set_file_idx" ON "analysis_jobs" USING btree ("set_file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_jobs_idempotency_idx" ON "analysis_jobs" USING btree ("organization_id","idempotency_key") WHERE "analysis_jobs"."idempotency_key" IS NOT NULL;