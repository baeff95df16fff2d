import { timingSafeEqual } from "node:crypto";
import type { Db } from "@/db/client";
import { findApiKeyByDigest, touchApiKeyLastUsed, type ApiKeyRecord } from "@/db/queries/api-keys";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { withOrganizationScope, withSystemScope } from "@/db/scope";
import { logError } from "@/lib/log";
import type { ApiKeyKind } from "@/db/schema";
import { digestApiKey, parseApiKey } from "./format";
import { forgetApiKey, lookUpMark, recallApiKey, rememberApiKey } from "./key-cache";

/** last_used_at is advisory; writing it at most once a minute keeps hot keys from a write per request. */
export const LAST_USED_DEBOUNCE_MS = 60_000;

export type VerifyFailureReason = "missing" | "malformed" | "unknown" | "revoked" | "expired";

export interface VerifiedApiKey {
  id: string;
  organizationId: string;
  kind: ApiKeyKind;
  expiresAt: Date | null;
}

export type VerifyApiKeyResult = { ok: true; key: VerifiedApiKey } | { ok: false; reason: VerifyFailureReason };

/**
 * Authenticates a presented key. Malformed input (bad prefix, length, alphabet or
 * checksum) is refused before any query. A key found valid is trusted for
 * API_KEY_CACHE_SECONDS without another look-up (key-cache.ts): revoked in this
 * process, it is refused from the next request; revoked elsewhere (another
 * instance, the CLI), within those seconds. Expiry is checked on every call.
 * Callers should answer every failure with the same 401 body and keep `reason` for logs.
 */
export async function verifyApiKey(
  db: Db,
  presented: string | null | undefined,
  now: Date = new Date(),
): Promise<VerifyApiKeyResult> {
  if (presented == null || presented === "") return { ok: false, reason: "missing" };
  const parsed = parseApiKey(presented);
  if (!parsed) return { ok: false, reason: "malformed" };

  const digest = digestApiKey(parsed.key);
  const cached = recallApiKey(db, digest, now);
  if (cached) return withOrganizationScope(cached.organizationId, () => checkFoundKey(db, cached, now));
  const mark = lookUpMark(db);
  // The key's organization is what the look-up finds: until then no organization's scope applies.
  const found = await withSystemScope("api-key lookup", () => findApiKeyByDigest(db, digest));
  if (!found || !sameDigest(found.digest, digest)) return { ok: false, reason: "unknown" };
  const { digest: _stored, ...row } = found;
  const result = await withOrganizationScope(row.organizationId, () => checkFoundKey(db, row, now));
  if (result.ok) rememberApiKey(db, digest, row, now, mark);
  return result;
}

/**
 * A found key, in its organization's scope: refused when revoked or expired
 * (audited, and forgotten), else its use noted on `row` and in the database.
 */
async function checkFoundKey(db: Db, row: ApiKeyRecord, now: Date): Promise<VerifyApiKeyResult> {
  const refusal = row.revokedAt ? "revoked" : row.expiresAt && now >= row.expiresAt ? "expired" : undefined;
  if (refusal) {
    forgetApiKey(db, row.id);
    await auditRefusal(db, row, refusal);
    return { ok: false, reason: refusal };
  }

  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_DEBOUNCE_MS) {
    row.lastUsedAt = now;
    await touchApiKeyLastUsed(db, {
      organizationId: row.organizationId,
      keyId: row.id,
      now,
      debounceMs: LAST_USED_DEBOUNCE_MS,
    }).catch((error: unknown) => logError(`api key ${row.id}: last_used_at not updated`, error));
  }
  return { ok: true, key: { id: row.id, organizationId: row.organizationId, kind: row.kind, expiresAt: row.expiresAt } };
}

/** Defence in depth: the index matched, now confirm without a timing side channel. */
function sameDigest(stored: string, computed: string): boolean {
  const a = Buffer.from(stored, "utf8");
  const b = Buffer.from(computed, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The audit trail names the key by id, never by its secret; a failed write must not turn a 401 into a 500. */
async function auditRefusal(db: Db, row: ApiKeyRecord, reason: "revoked" | "expired"): Promise<void> {
  await insertAuditEvent(db, {
    organizationId: row.organizationId,
    actor: row.id,
    action: "auth.failed",
    target: row.id,
    detail: { reason, start: row.start },
  }).catch((error: unknown) => logError(`api key ${row.id}: auth failure not audited`, error));
}
