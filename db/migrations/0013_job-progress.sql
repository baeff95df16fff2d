ALTER TABLE "analysis_jobs" ADD COLUMN "pages_done" integer;--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD COLUMN "pages_total" integer;--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD COLUMN "estimated_end_at" timestamp with time zone;