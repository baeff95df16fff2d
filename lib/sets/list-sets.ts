import "server-only";
import type { Db } from "@/db/client";
import { listDocumentSets } from "@/db/queries/sets";
import { toSetSummary } from "./summaries";
import type { SetSummary } from "./types";

/** The list page shows this many sets, newest first. */
const SET_LIST_LIMIT = 200;

export async function listSets(db: Db, params: { organizationId: string }): Promise<SetSummary[]> {
  const rows = await listDocumentSets(db, { organizationId: params.organizationId, limit: SET_LIST_LIMIT });
  return rows.map(toSetSummary);
}
