ALTER TABLE "analysis_jobs" ADD COLUMN "queue_name" text;--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD COLUMN "lease_expires_at" timestamp with time zone;