import "server-only";
import type { Db } from "@/db/client";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { findDocumentSet } from "@/db/queries/sets";
import { findMembership } from "@/db/queries/users";
import { deleteSet, SET_NOT_FOUND } from "@/lib/sets/delete-set";
import { ApiError } from "@/lib/errors";

/**
 * Deletes a document set for a member of its organization: allowed to the
 * member who created it and to the organization's admins, audited in the
 * same transaction as the deletion (a set is evidence of what was examined,
 * so who removed it must stay on record). Another organization's set is 404.
 */
export async function deleteDocumentSet(db: Db, params: { organizationId: string; setId: string; deletedBy: string }): Promise<void> {
  const { organizationId, setId, deletedBy } = params;
  await db.transaction(async (tx) => {
    const set = await findDocumentSet(tx, { organizationId, setId });
    if (!set) throw new ApiError("not_found", SET_NOT_FOUND);
    const membership = await findMembership(tx, { organizationId, userId: deletedBy });
    if (!membership) throw new ApiError("not_found", SET_NOT_FOUND);
    if (membership.role !== "admin" && set.createdBy !== deletedBy) {
      throw new ApiError("forbidden", "Only the member who created this set or an administrator can delete it.");
    }
    // deleteSet's own transaction becomes a savepoint inside this one: the audit row and the deletion commit together.
    await deleteSet(tx, { organizationId, setId });
    await insertAuditEvent(tx, {
      organizationId,
      actor: deletedBy,
      action: "document_set.deleted",
      target: setId,
      detail: { name: set.name },
    });
  });
}
