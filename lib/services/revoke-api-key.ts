import { z } from "zod";
import type { Db } from "@/db/client";
import { markApiKeyRevoked } from "@/db/queries/api-keys";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { forgetApiKey } from "@/lib/keys/key-cache";
import { requireAdmin } from "./authorize";
import { OPERATOR } from "./operator";
import { organizationIdSchema, parseInput } from "./validation";

const RevokeApiKeyInput = z.object({
  organizationId: organizationIdSchema,
  keyId: z.string().min(1, "keyId is required"),
  revokedBy: z.string().min(1, "revokedBy is required"),
  now: z.date().default(() => new Date()),
});

/**
 * Revokes one of the organization's keys; effective on the key's next request
 * to this process, and to other app instances within API_KEY_CACHE_SECONDS.
 * False when no active key of this organization has that id (another
 * organization's key, an unknown id, or already revoked): nothing changes then.
 * `revokedBy` is required: a signed-in user must be an admin of the
 * organization; OPERATOR (the server's own CLI) is let through.
 */
export async function revokeApiKey(
  db: Db,
  input: { organizationId: string; keyId: string; revokedBy: string; now?: Date },
): Promise<boolean> {
  const params = parseInput(RevokeApiKeyInput, input);
  const done = await db.transaction(async (tx) => {
    if (params.revokedBy !== OPERATOR) await requireAdmin(tx, { organizationId: params.organizationId, userId: params.revokedBy });
    const revoked = await markApiKeyRevoked(tx, params);
    if (!revoked) return false;
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.revokedBy,
      action: "api_key.revoked",
      target: revoked.id,
      detail: { kind: revoked.kind, name: revoked.name, start: revoked.start },
    });
    return true;
  });
  // This process verifies keys through a short cache (lib/keys/key-cache): the next request looks the key up again.
  forgetApiKey(db, params.keyId);
  return done;
}
