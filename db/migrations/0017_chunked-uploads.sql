-- Uploads are stored in fixed-size chunks (document_chunks, 1 MiB each), written
-- as the body arrives, instead of one bytea value per file held whole in memory
-- (issue 11). stored_files keeps each file's record: its length and SHA-256 (the
-- reader checks the chunks against them) and when the request that sent it was
-- accepted (received_at; null while the body is still arriving). Files stored
-- before this migration become chunks of the same size, received when created.
CREATE TABLE "document_chunks" (
	"storage_key" text NOT NULL,
	"organization_id" text NOT NULL,
	"chunk_index" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "document_chunks_storage_key_chunk_index_pk" PRIMARY KEY("storage_key","chunk_index"),
	CONSTRAINT "document_chunks_index_nonnegative" CHECK ("document_chunks"."chunk_index" >= 0)
);
--> statement-breakpoint
ALTER TABLE "stored_files" ADD COLUMN "size_bytes" integer;--> statement-breakpoint
ALTER TABLE "stored_files" ADD COLUMN "sha256" char(64);--> statement-breakpoint
ALTER TABLE "stored_files" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_storage_key_stored_files_storage_key_fk" FOREIGN KEY ("storage_key") REFERENCES "public"."stored_files"("storage_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_files_unreceived_idx" ON "stored_files" USING btree ("created_at") WHERE "stored_files"."received_at" IS NULL;--> statement-breakpoint
-- Existing files: 1 MiB chunks (an empty file keeps one empty chunk), then their length and digest.
INSERT INTO "document_chunks" ("storage_key", "organization_id", "chunk_index", "bytes")
  SELECT f."storage_key", f."organization_id", i, substring(f."bytes" FROM i * 1048576 + 1 FOR 1048576)
  FROM "stored_files" f, generate_series(0, greatest((octet_length(f."bytes") + 1048575) / 1048576 - 1, 0)) AS i;
--> statement-breakpoint
UPDATE "stored_files" SET "size_bytes" = octet_length("bytes"), "sha256" = encode(sha256("bytes"), 'hex'), "received_at" = "created_at";
--> statement-breakpoint
ALTER TABLE "stored_files" DROP COLUMN "bytes";--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_sha256_hex" CHECK ("stored_files"."sha256" ~ '^[0-9a-f]{64}$');--> statement-breakpoint
-- Chunks belong to their organization, under the strict policy every organization-owned table has (0015).
ALTER TABLE "document_chunks" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "document_chunks" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "organization_scope" ON "document_chunks"
  USING ("organization_id" = current_setting('app.organization_id', true) OR coalesce(current_setting('app.system_scope', true), '') <> '')
  WITH CHECK ("organization_id" = current_setting('app.organization_id', true) OR coalesce(current_setting('app.system_scope', true), '') <> '');
--> statement-breakpoint
-- The status of a job's webhook delivery is looked up by the job's id in the queue's entries
-- (AnalysisQueue.webhookEntry). pg-boss creates its schema at its first start, after the first
-- migration: here for a database that has it already; the queue creates the same index at start.
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NOT NULL THEN
    CREATE INDEX IF NOT EXISTS "job_data_job_id_idx" ON pgboss.job (name, (data->>'jobId'));
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'index on pgboss.job not created here: its owner (the app role) creates it at the queue''s start';
END $$;
