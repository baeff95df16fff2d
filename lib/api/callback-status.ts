import "server-only";
import type { WebhookAttemptRow } from "@/db/schema";
import type { WebhookEntry } from "@/lib/jobs";

/** Where the delivery of an analysis's callback_url stands (GET /v1/analyses/{id}, `callback`). */
export interface CallbackStatusBody {
  url: string;
  /**
   * pending: not sent yet (the analysis is unfinished, or its delivery waits its turn);
   * delivering: being posted now; retrying: the last attempt failed and another is due at
   * next_attempt_at; delivered: the receiver answered 2XX; failed: given up.
   */
  status: "pending" | "delivering" | "retrying" | "delivered" | "failed";
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/**
 * The callback's deliveries as the client sees them: the attempts recorded
 * (webhook_attempts) and the queue's entry for the delivery, if any is
 * unfinished (its state says whether it is being sent or when it is retried).
 * A delivery whose entry has ended went as its last attempt did.
 */
export function callbackStatusBody(url: string, attempts: WebhookAttemptRow[], entry: WebhookEntry | undefined): CallbackStatusBody {
  const last = attempts.at(-1);
  let status: CallbackStatusBody["status"];
  if (entry?.state === "active") status = "delivering";
  else if (entry?.state === "created" || entry?.state === "retry") status = last ? "retrying" : "pending";
  else if (last) status = isSuccess(last.statusCode) ? "delivered" : "failed";
  else status = "pending";
  const waiting = status === "pending" || status === "retrying";
  return {
    url,
    status,
    attempts: attempts.length,
    last_status_code: last?.statusCode ?? null,
    last_error: last?.error ?? null,
    last_attempt_at: last ? last.createdAt.toISOString() : null,
    next_attempt_at: waiting && entry ? entry.startAfter.toISOString() : null,
  };
}
