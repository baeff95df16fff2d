import { randomBytes } from "node:crypto";

// Test files share one PostgreSQL database: each file (and the servers it starts, which inherit
// the environment) gets an analysis queue of its own, so no file's workers take another's jobs.
process.env.ANALYSIS_QUEUE_NAME ??= `test-${randomBytes(6).toString("hex")}`;
// A job whose worker died is found again within a second or two, not at the production interval.
process.env.ANALYSIS_MAINTENANCE_SECONDS ??= "1";
