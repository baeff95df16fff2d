import { z } from "zod";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { insertApiKey, type ApiKeyRecord } from "@/db/queries/api-keys";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { getOrganizationById } from "@/db/queries/organizations";
import type { ApiKeyKind } from "@/db/schema";
import { digestApiKey, generateApiKey, parseApiKey } from "@/lib/keys/format";
import { requireAdmin } from "./authorize";
import { ApiError } from "@/lib/errors";
import { OPERATOR } from "./operator";
import { API_KEY_NAME_MAX_LENGTH, organizationIdSchema, parseInput } from "./validation";

/** The spec: sandbox keys expire 4 weeks after issue. */
export const SANDBOX_KEY_LIFETIME_MS = 28 * 24 * 60 * 60 * 1000;

const CreateApiKeyInput = z.object({
  organizationId: organizationIdSchema,
  kind: z.enum(["production", "sandbox"], "kind must be production or sandbox"),
  name: z.string().trim().min(1).max(API_KEY_NAME_MAX_LENGTH).optional(),
  createdBy: z.string().min(1, "createdBy is required"),
  now: z.date().default(() => new Date()),
});

export interface CreatedApiKey {
  /** The plaintext key: show it once, it cannot be recovered. */
  key: string;
  record: ApiKeyRecord;
}

/**
 * Issues a key for the organization. `createdBy` is required: a signed-in user
 * must be an admin of it; OPERATOR (the server's own CLI) is let through.
 */
export async function createApiKey(
  db: Db,
  input: { organizationId: string; kind: ApiKeyKind; name?: string; createdBy: string; now?: Date },
): Promise<CreatedApiKey> {
  const params = parseInput(CreateApiKeyInput, input);
  return db.transaction(async (tx) => {
    if (params.createdBy !== OPERATOR) await requireAdmin(tx, { organizationId: params.organizationId, userId: params.createdBy });
    if (!(await getOrganizationById(tx, params.organizationId))) {
      throw new ApiError("not_found", "Organization not found.");
    }
    const key = generateApiKey(params.kind);
    const parsed = parseApiKey(key);
    if (!parsed) throw new Error("generated API key failed its own format check");
    const record = await insertApiKey(tx, {
      id: newId("key"),
      organizationId: params.organizationId,
      kind: params.kind,
      name: params.name ?? null,
      digest: digestApiKey(key),
      start: parsed.start,
      createdAt: params.now,
      expiresAt: params.kind === "sandbox" ? new Date(params.now.getTime() + SANDBOX_KEY_LIFETIME_MS) : null,
      // The operator is no user: the column references users.
      createdBy: params.createdBy === OPERATOR ? null : params.createdBy,
    });
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.createdBy,
      action: "api_key.created",
      target: record.id,
      detail: { kind: record.kind, name: record.name, start: record.start },
    });
    return { key, record };
  });
}
