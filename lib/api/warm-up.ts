import "server-only";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { ensureOrganization } from "@/db/queries/organizations";
import { deleteWarmUpOrganization, listStaleWarmUpOrganizations, WARM_UP_SLUG_PREFIX } from "@/db/queries/warm-up-organizations";
import { withOrganizationScope, withSystemScope } from "@/db/scope";
import { analysisQueue } from "@/lib/jobs/analysis-queue";
import { env } from "@/lib/env";
import { logError } from "@/lib/log";
import { WARM_UP_DIR, WARM_UP_SAMPLES } from "@/lib/readers/warm-up-samples";
import { createApiKey, OPERATOR } from "@/lib/services";
import { analyzeRequest } from "./analyze";
import { withApiKey } from "./handler";
import { organizationBucket } from "./rate-limit";

/**
 * Requests of the warm-up. Over the first 20 requests after a start the server
 * spent 57-70 ms of CPU per request on PGlite against 23-27 ms warm: V8
 * compiling the route's code, PGlite's WebAssembly tiering up and its first
 * plans. So requests after a start queued behind slow ones (8 clients from
 * the first request: p99 875 ms on PGlite, 318-368 ms on PostgreSQL). 48
 * requests, 4 at a time, against 16 one at a time: the first 80 requests of 8
 * clients after a start on PostgreSQL cost the server 19-20 ms of CPU each
 * instead of 22-25, the readers 22-24 instead of 26-27, and their p99 fell
 * 577-636 -> 514-553 ms (3 starts each, interleaved, load 1-3); the start took
 * 0.3-0.8 s longer.
 */
export const WARM_UP_REQUESTS = 48;
/**
 * Requests in flight at once during the warm-up. One at a time, a start warmed
 * one database connection and the path where nothing waits; requests after a
 * start come several at once: they open connections of their own (PostgreSQL
 * starts a backend, whose first statements fill its caches and, here, prepare
 * each statement) and take the paths where entries wait behind the running cap.
 */
const WARM_UP_CONCURRENCY = 4;
/** A warm-up organization older than this was left by a start that died during its warm-up. */
const STALE_WARM_UP_MINUTES = 10;
const ANALYZE_PATH = "/v1/documents/analyze";

/** Where the warm-up sends its requests: the route module in this process, or the server's own origin over HTTP. */
export interface WarmUpOptions {
  /**
   * The origin this server listens on. `next start` loads each route's own
   * compiled bundle on the route's first request, apart from the bundle this
   * code runs in; only a request over HTTP warms that bundle (and Next's
   * request path before it). Without it, the route module is called in process.
   */
  origin?: string;
}

/**
 * Sends POST /v1/documents/analyze through the real route code (key, rate
 * limit, admission, streamed upload, job, worker, reader, stored analysis,
 * answer) before the server says it is ready, as an organization of its own
 * that no user belongs to and no operator can name (db/queries/warm-up-organizations),
 * then removes it with every row its requests left, queue entries included.
 * Also removes what an earlier start that died during its warm-up left. A
 * failure is logged, never fatal: the server only starts colder. Returns how
 * many requests were answered 200.
 */
export async function warmUpAnalyzeRoute(db: Db, options: WarmUpOptions = {}): Promise<number> {
  const system = <T>(work: () => Promise<T>) => withSystemScope("start-up warm-up", work);
  const remove = async (organizationId: string) => {
    await (await analysisQueue(db)).deleteEntriesOf(organizationId);
    const buckets = (["production", "sandbox"] as const).map((kind) => organizationBucket(organizationId, kind));
    await system(() => db.transaction((tx) => deleteWarmUpOrganization(tx, organizationId, buckets)));
  };
  try {
    for (const stale of await system(() => listStaleWarmUpOrganizations(db, STALE_WARM_UP_MINUTES))) await remove(stale);
  } catch (error) {
    logError("start-up warm-up: an earlier warm-up's organization was not removed", error);
  }
  let organizationId: string | undefined;
  let answered = 0;
  try {
    const slug = `${WARM_UP_SLUG_PREFIX}${randomBytes(12).toString("hex")}`;
    const { organization } = await system(() => ensureOrganization(db, { id: newId("org"), slug, name: "Start-up warm-up" }));
    organizationId = organization.id;
    const { key } = await withOrganizationScope(organization.id, () => createApiKey(db, { organizationId: organization.id, kind: "production", name: "start-up warm-up", createdBy: OPERATOR }));
    const post = options.origin ? overHttp(options.origin) : withApiKey(analyzeRequest, { openDb: async () => db });
    const samples = WARM_UP_SAMPLES.map((sample) => readFileSync(path.join(WARM_UP_DIR, sample.file)));
    // Within the organization's rate limit, which a deployment may set lower.
    const requests = Math.min(WARM_UP_REQUESTS, env().RATE_LIMIT_PRODUCTION);
    let sent = 0;
    let failed = false;
    const sendInTurn = async () => {
      while (sent < requests && !failed) {
        const form = new FormData();
        form.set("file", new Blob([new Uint8Array(samples[sent++ % samples.length]!)], { type: "application/pdf" }), "warm-up.pdf");
        const response = await post(new Request(`http://localhost${ANALYZE_PATH}`, { method: "POST", headers: { "x-api-key": key }, body: form }));
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`the warm-up request was answered ${response.status}`);
        answered++;
      }
    };
    const inTurn = () => sendInTurn().catch((error: unknown) => {
      failed = true;
      throw error;
    });
    // Every request in flight ends before the organization is removed; the first failure is the one reported.
    const failure = (await Promise.allSettled(Array.from({ length: WARM_UP_CONCURRENCY }, inTurn))).find((lane) => lane.status === "rejected");
    if (failure) throw failure.reason;
  } catch (error) {
    logError("start-up warm-up", error);
  } finally {
    if (organizationId) await remove(organizationId).catch((error: unknown) => logError("start-up warm-up: its organization was not removed", error));
  }
  return answered;
}

/** Sends a warm-up request to the server's own origin instead of the route module. */
function overHttp(origin: string): (request: Request) => Promise<Response> {
  const url = new URL(ANALYZE_PATH, origin);
  return async (request) => fetch(url, { method: request.method, headers: request.headers, body: await request.arrayBuffer() });
}
