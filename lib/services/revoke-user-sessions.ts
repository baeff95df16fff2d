import { z } from "zod";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { findMembership, markSessionsRevoked } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { OPERATOR } from "./operator";
import { organizationIdSchema, parseInput } from "./validation";

const RevokeUserSessionsInput = z.object({
  organizationId: organizationIdSchema,
  userId: z.string().min(1, "userId is required"),
  revokedBy: z.string().min(1, "revokedBy is required"),
});

/**
 * Ends every session a user has signed in, on every device: "sign out
 * everywhere" when revokedBy is the user, an admin's (or the operator's)
 * revocation otherwise.
 * Effective on the next request: the guards and the token renewal refuse
 * any session that signed in before this moment.
 */
export async function revokeUserSessions(db: Db, input: { organizationId: string; userId: string; revokedBy: string }): Promise<void> {
  const params = parseInput(RevokeUserSessionsInput, input);
  await db.transaction(async (tx) => {
    if (params.revokedBy !== params.userId && params.revokedBy !== OPERATOR) {
      const actor = await findMembership(tx, { organizationId: params.organizationId, userId: params.revokedBy });
      if (actor?.role !== "admin") throw new ApiError("forbidden", "Only an administrator of this organization can end another member's sessions.");
    }
    // Another organization's user looks exactly like no user at all.
    if (!(await findMembership(tx, { organizationId: params.organizationId, userId: params.userId }))) {
      throw new ApiError("not_found", "Member not found.");
    }
    await markSessionsRevoked(tx, { userId: params.userId });
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.revokedBy,
      action: "session.revoked_all",
      target: params.userId,
    });
  });
}
