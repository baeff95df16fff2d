import "server-only";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { findAnalysis } from "@/db/queries/analyses";
import { findAnalysisJob } from "@/db/queries/analysis-jobs";
import { findWebhookSecret, insertWebhookAttempt } from "@/db/queries/webhooks";
import { ApiError } from "@/lib/errors";
import { postJsonToUrl } from "@/lib/api/url-fetch";
import { env } from "@/lib/env";
import { SIGNATURE_HEADER, signatureOf, webhookSecretOf } from "./secret";

const USER_AGENT = "Shipshape-Webhook/1";

/** A delivery that did not reach a 2XX: the queue tries it again later. */
class WebhookDeliveryError extends Error {
  override name = "WebhookDeliveryError";
}

/** The outcome as GET /v1/analyses/{id} answers it: the status and, when done, exactly the analyze array; when failed, why. */
function bodyOf(job: { id: string; status: string; errorDetail: string | null }, result: unknown): string {
  if (job.status === "done") return JSON.stringify({ id: job.id, status: job.status, result });
  return JSON.stringify({ id: job.id, status: job.status, detail: job.errorDetail ?? "The analysis failed." });
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * One attempt to post a finished analysis to its callback_url, signed with
 * the organization's webhook secret, through the guarded fetcher (public
 * addresses only). Every attempt is recorded with what the receiver answered;
 * one that got no 2XX throws, for the queue to retry with backoff. An address
 * the fetcher refuses, or an organization without a secret, is recorded and
 * not retried: trying again cannot change the answer.
 */
export async function deliverWebhook(db: Db, job: { jobId: string; organizationId: string }, attempt: number): Promise<void> {
  const scope = { organizationId: job.organizationId };
  const row = await findAnalysisJob(db, { ...scope, jobId: job.jobId });
  // Deleted with its set since, or never asked for a webhook.
  if (!row?.callbackUrl) return;
  const record = (statusCode: number | null, error: string | null, durationMs: number) =>
    insertWebhookAttempt(db, { id: newId("whk"), ...scope, analysisId: row.id, attempt, statusCode, error, durationMs });

  const secret = await findWebhookSecret(db, scope);
  if (!secret) {
    await record(null, "The organization has no webhook secret; an admin creates one in the web app.", 0);
    return;
  }
  const analysis = row.status === "done" ? await findAnalysis(db, { ...scope, analysisId: row.id }) : undefined;
  const body = bodyOf(row, analysis?.result);
  const signature = signatureOf(webhookSecretOf(job.organizationId, secret.salt), body, Math.floor(Date.now() / 1000));
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let status: number;
  try {
    status = await postJsonToUrl(row.callbackUrl, body, { [SIGNATURE_HEADER]: signature, "user-agent": USER_AGENT }, env().WEBHOOK_TIMEOUT_MS);
  } catch (error) {
    const reason = error instanceof ApiError ? error.message : "the delivery failed";
    await record(null, reason, elapsed());
    // The address itself was refused (not public, bad port): no retry can change that.
    if (error instanceof ApiError && error.code === "invalid_input") return;
    throw new WebhookDeliveryError(reason);
  }
  if (isSuccess(status)) return void (await record(status, null, elapsed()));
  await record(status, `The receiver answered ${status}.`, elapsed());
  throw new WebhookDeliveryError(`the receiver answered ${status}`);
}
