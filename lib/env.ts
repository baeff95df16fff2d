import { availableParallelism } from "node:os";
import { z } from "zod";

/**
 * The service's configuration, read from the environment once and validated.
 * Every default here is documented in the README's configuration table.
 */
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const EnvSchema = z.object({
  /** postgres://… selects PostgreSQL through `pg`; unset selects embedded PGlite in PGLITE_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /**
   * The role the app takes after migrating as DATABASE_URL's user: a role that
   * owns no table, so row-level security binds it (migration 0011 creates
   * shipshape_app; db/scope.ts says what each connection may see). Unset: the
   * connecting user's own rights.
   */
  DATABASE_APP_ROLE: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, "DATABASE_APP_ROLE must be a plain lower-case role name").optional(),
  /** false: statements go unnamed, for a pooler in transaction mode that cannot carry prepared statements (db/statement-cache.ts). */
  DATABASE_PREPARED_STATEMENTS: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  /** Where embedded PGlite keeps its data; `memory://` keeps it in memory (tests). */
  PGLITE_DIR: z.string().default(".data/pglite"),
  /** Requests per minute that an organization's production keys share. */
  RATE_LIMIT_PRODUCTION: positiveInt(120),
  /** Requests per minute that an organization's sandbox keys share. */
  RATE_LIMIT_SANDBOX: positiveInt(20),
  /** Largest accepted upload or fetched document, in MiB. */
  MAX_UPLOAD_MB: positiveInt(25),
  /**
   * Bytes of request bodies (uploads) one server process may be receiving and holding at once, in MiB;
   * an upload beyond it is refused with 503 and Retry-After before its body is read.
   */
  UPLOAD_BYTES_IN_FLIGHT_MB: positiveInt(256),
  /** Files one person may upload to document sets per minute (the web app). */
  UPLOAD_RATE_LIMIT_USER: positiveInt(60),
  /** Files an organization's people together may upload to document sets per minute. */
  UPLOAD_RATE_LIMIT_ORGANIZATION: positiveInt(240),
  /** Bytes of document-set files one organization may keep, in MiB. */
  STORAGE_QUOTA_MB: positiveInt(10_240),
  /** Largest number of pages analysed in one document. */
  MAX_PAGES: positiveInt(500),
  /** Total time allowed to fetch a `url` input, redirects included. */
  URL_FETCH_TIMEOUT_MS: positiveInt(20_000),
  /** Redirect hops a `url` fetch may follow. */
  URL_MAX_REDIRECTS: z.coerce.number().int().min(0).max(10).default(3),
  /** Reader processes that parse and OCR documents at once (one per core: OCR is CPU-bound). */
  ANALYSIS_WORKERS: z.coerce.number().int().positive().default(() => availableParallelism()),
  /** Documents that may wait for a free reader; an API request beyond that is refused with 503. */
  ANALYSIS_QUEUE_MAX: z.coerce.number().int().min(0).default(16),
  /**
   * Processor time (user and system, ms) one document may take to be read, spent by its reader and
   * the OCR and renderer processes it starts; the reader is killed beyond it (422). Processor time, not
   * wall time: under load a document takes many times its processor time, and load must not fail it.
   */
  ANALYSIS_TIMEOUT_MS: positiveInt(180_000),
  /**
   * Wall-clock backstop of one document (ms), for a reader that makes no progress (stalled on I/O);
   * killed beyond it (422). Unset: WALL_PER_CPU_BUDGET × ANALYSIS_TIMEOUT_MS.
   */
  ANALYSIS_WALL_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  /** How long a web session lasts from sign-in, however often it is renewed; sign in again after it. */
  SESSION_LIFETIME_HOURS: positiveInt(12),
  /** Resident memory one reader process (with the OCR and renderer processes it starts) may use, in MiB; killed beyond it (422). */
  ANALYSIS_MAX_MEMORY_MB: positiveInt(2048),
  /** Jobs of one organization that may be waiting or running at once (a compare's 20 files fit); a request beyond is 429. */
  ANALYSIS_ORG_MAX_JOBS: positiveInt(24),
  /**
   * Jobs of one organization that may run at once, on every worker together; its other jobs wait.
   * Unset: one less than ANALYSIS_WORKERS (at least 1), so that another organization always finds a
   * free reader on a single host. A deployment serving one organization sets it to ANALYSIS_WORKERS.
   */
  ANALYSIS_ORG_MAX_RUNNING: z.coerce.number().int().positive().optional(),
  /** Attempts after the first for a job whose worker died or failed for a reason that is not the file's. */
  ANALYSIS_RETRY_LIMIT: z.coerce.number().int().min(0).max(10).default(2),
  /** How often the queue looks for jobs whose worker died (seconds). */
  ANALYSIS_MAINTENANCE_SECONDS: positiveInt(30),
  /**
   * A running job's lease, seconds: its worker renews it every third of this. A job whose lease has
   * run out (its worker died or hangs) stops counting against the caps at once, and a live worker
   * hands it back to the queue (retried, or failed with its reason after the last attempt).
   */
  ANALYSIS_LEASE_SECONDS: z.coerce.number().int().min(3).default(30),
  /** The queue's name: deployments (or test runs) sharing one database use different names. */
  ANALYSIS_QUEUE_NAME: z.string().regex(/^[a-z0-9-]{1,40}$/).default("analysis"),
  /**
   * Secret from which every organization's webhook signing secret is derived (with its salt in the
   * database). Unset: generated once into .data/webhook-pepper; set it alike on every host.
   */
  WEBHOOK_SECRET_PEPPER: z.string().min(32, "WEBHOOK_SECRET_PEPPER must have at least 32 characters").optional(),
  /** Attempts after the first to deliver a webhook whose receiver failed or was unreachable (waits double from WEBHOOK_RETRY_DELAY_SECONDS). */
  WEBHOOK_RETRY_LIMIT: z.coerce.number().int().min(0).max(10).default(5),
  /** Wait before the first retry of a webhook delivery, seconds; each later wait doubles. */
  WEBHOOK_RETRY_DELAY_SECONDS: positiveInt(5),
  /**
   * How often a process's webhook worker looks for deliveries it was not woken for, seconds: retries
   * whose wait is over, and deliveries queued by a process that stopped before sending them. The
   * process that ends a job wakes its own worker once the ending commits.
   */
  WEBHOOK_POLLING_SECONDS: positiveInt(2),
  /** Time a webhook receiver has to answer one delivery. */
  WEBHOOK_TIMEOUT_MS: positiveInt(10_000),
  /** `npm start` runs a worker inside the server unless this is false (then run `npm run worker`). */
  ANALYSIS_IN_PROCESS_WORKER: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
});

export type Env = z.infer<typeof EnvSchema>;

/**
 * The wall-clock backstop of a document when ANALYSIS_WALL_TIMEOUT_MS is unset, in processor-time
 * budgets: a reader that works gets its whole budget even with a fifth of a core.
 */
export const WALL_PER_CPU_BUDGET = 5;

/** The wall-clock backstop of reading one document, ms (ANALYSIS_WALL_TIMEOUT_MS or its default). */
export function analysisWallTimeoutMs(config: Env = env()): number {
  return config.ANALYSIS_WALL_TIMEOUT_MS ?? config.ANALYSIS_TIMEOUT_MS * WALL_PER_CPU_BUDGET;
}

/** ANALYSIS_ORG_MAX_RUNNING, or one less than the readers (at least one): another organization always finds one free. */
export function analysisOrgMaxRunning(config: Env = env()): number {
  return config.ANALYSIS_ORG_MAX_RUNNING ?? Math.max(1, config.ANALYSIS_WORKERS - 1);
}

let cached: Env | undefined;

/** The validated environment; throws once, at first use, on a bad value. */
export function env(): Env {
  cached ??= EnvSchema.parse(process.env);
  return cached;
}

/** Forget the cached environment (tests change variables between cases). */
export function resetEnvForTests(): void {
  cached = undefined;
}
