import { sql } from "drizzle-orm";
import { boolean, char, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys";
import { setFiles } from "./document-sets";
import { organizations } from "./organizations";
import { users } from "./users";

export const analysisJobStatus = pgEnum("analysis_job_status", ["queued", "running", "done", "failed"]);
export type AnalysisJobStatus = (typeof analysisJobStatus.enumValues)[number];

/**
 * One analysis asked for (an API call, a web upload, a file of a compare),
 * from the moment it is accepted until it is done or failed. Its id is the id
 * the finished analysis gets in `analyses`, so one job can never produce two
 * analyses. The queue library (pg-boss, in its own schema) only hands the id
 * to a worker; what the job is and how it ended lives here.
 */
export const analysisJobs = pgTable(
  "analysis_jobs",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    apiKeyId: text("api_key_id").references(() => apiKeys.id),
    userId: text("user_id").references(() => users.id),
    /** The web upload this job reads; deleting the set deletes the job, so a late worker writes nothing. */
    setFileId: text("set_file_id").references(() => setFiles.id, { onDelete: "cascade" }),
    /** Where the input bytes are kept (stored_files) until the job ends. */
    storageKey: text("storage_key").notNull(),
    inputName: text("input_name"),
    inputBytes: integer("input_bytes").notNull(),
    sha256: char("sha256", { length: 64 }).notNull(),
    evidence: boolean("evidence").notNull().default(false),
    status: analysisJobStatus("status").notNull().default("queued"),
    /** Why the job failed: the engine's refusal code (unsupported_format, timeout …) or `internal`. */
    errorCode: text("error_code"),
    /** The reason in words for the caller. */
    errorDetail: text("error_detail"),
    /** Times a worker took the job (a worker that died leaves the job to be taken again). */
    attempts: integer("attempts").notNull().default(0),
    /** The client's Idempotency-Key and a digest of what it sent with it. */
    idempotencyKey: text("idempotency_key"),
    requestHash: char("request_hash", { length: 64 }),
    /** Where the outcome is posted when the job ends (async API). */
    callbackUrl: text("callback_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** While running: pages the reader has read of the file's pages (null until it knows the page count). */
    pagesDone: integer("pages_done"),
    pagesTotal: integer("pages_total"),
    /** When the reading should end at the pace of the pages read so far (null until a page has been read). */
    estimatedEndAt: timestamp("estimated_end_at", { withTimezone: true }),
    /** The queue (ANALYSIS_QUEUE_NAME) the job was sent to: admission counts the jobs of its own queue. */
    queueName: text("queue_name"),
    /** While running: until when the worker's lease holds; renewed while it reads, run out when it died. */
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
  },
  (t) => [
    index("analysis_jobs_status_idx").on(t.status, t.organizationId),
    index("analysis_jobs_set_file_idx").on(t.setFileId),
    uniqueIndex("analysis_jobs_idempotency_idx").on(t.organizationId, t.idempotencyKey).where(sql`${t.idempotencyKey} IS NOT NULL`),
  ],
);

export type AnalysisJobRow = typeof analysisJobs.$inferSelect;
