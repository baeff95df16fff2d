import { and, desc, eq, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../client";
import { apiKeys, type ApiKeyKind } from "../schema";

/** Every column except the digest, which never leaves the data layer. */
const recordColumns = {
  id: apiKeys.id,
  organizationId: apiKeys.organizationId,
  kind: apiKeys.kind,
  name: apiKeys.name,
  start: apiKeys.start,
  createdAt: apiKeys.createdAt,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  createdBy: apiKeys.createdBy,
};

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  kind: ApiKeyKind;
  name: string | null;
  start: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdBy: string | null;
}

export interface NewApiKeyRow {
  id: string;
  organizationId: string;
  kind: ApiKeyKind;
  name: string | null;
  digest: string;
  start: string;
  createdAt: Date;
  expiresAt: Date | null;
  createdBy: string | null;
}

export async function insertApiKey(db: Db, values: NewApiKeyRow): Promise<ApiKeyRecord> {
  const [row] = await db.insert(apiKeys).values(values).returning(recordColumns);
  if (!row) throw new Error("insert into api_keys returned no row");
  return row;
}

/** The authentication lookup: the digest is the only thing known before the key is trusted. */
export async function findApiKeyByDigest(db: Db, digest: string): Promise<(ApiKeyRecord & { digest: string }) | undefined> {
  const [row] = await db
    .select({ ...recordColumns, digest: apiKeys.digest })
    .from(apiKeys)
    .where(eq(apiKeys.digest, digest))
    .limit(1);
  return row;
}

/** Sets last_used_at unless another request did less than `debounceMs` ago; returns whether it wrote. */
export async function touchApiKeyLastUsed(
  db: Db,
  params: { organizationId: string; keyId: string; now: Date; debounceMs: number },
): Promise<boolean> {
  const staleBefore = new Date(params.now.getTime() - params.debounceMs);
  const rows = await db
    .update(apiKeys)
    .set({ lastUsedAt: params.now })
    .where(
      and(
        eq(apiKeys.id, params.keyId),
        eq(apiKeys.organizationId, params.organizationId),
        or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, staleBefore)),
      ),
    )
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** Revokes an active key of this organization; another organization's id matches nothing. */
export async function markApiKeyRevoked(
  db: Db,
  params: { organizationId: string; keyId: string; now: Date },
): Promise<ApiKeyRecord | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: params.now })
    .where(
      and(
        eq(apiKeys.id, params.keyId),
        eq(apiKeys.organizationId, params.organizationId),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning(recordColumns);
  return row;
}

export async function listApiKeyRecords(db: Db, params: { organizationId: string }): Promise<ApiKeyRecord[]> {
  return db
    .select(recordColumns)
    .from(apiKeys)
    .where(eq(apiKeys.organizationId, params.organizationId))
    .orderBy(desc(apiKeys.createdAt), apiKeys.id);
}

/** Operator-only (the CLI revokes by id alone): which organization owns a key. */
export async function findApiKeyOrganizationId(db: Db, keyId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ organizationId: apiKeys.organizationId })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId))
    .limit(1);
  return row?.organizationId;
}
