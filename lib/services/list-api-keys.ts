import type { Db } from "@/db/client";
import { listApiKeyRecords } from "@/db/queries/api-keys";
import type { ApiKeyKind } from "@/db/schema";
import { organizationIdSchema, parseInput } from "./validation";

type ApiKeyStatus = "active" | "revoked" | "expired";

/** What people may see about a key: never the key, never its digest. */
export interface ApiKeySummary {
  id: string;
  name: string | null;
  kind: ApiKeyKind;
  start: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  status: ApiKeyStatus;
}

/** The organization's keys, newest first. */
export async function listApiKeys(
  db: Db,
  input: { organizationId: string; now?: Date },
): Promise<ApiKeySummary[]> {
  const organizationId = parseInput(organizationIdSchema, input.organizationId);
  const now = input.now ?? new Date();
  const records = await listApiKeyRecords(db, { organizationId });
  return records.map((record) => ({
    id: record.id,
    name: record.name,
    kind: record.kind,
    start: record.start,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    lastUsedAt: record.lastUsedAt,
    revokedAt: record.revokedAt,
    status: record.revokedAt ? "revoked" : record.expiresAt && now >= record.expiresAt ? "expired" : "active",
  }));
}
