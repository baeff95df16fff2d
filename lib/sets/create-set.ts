import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { insertDocumentSet } from "@/db/queries/sets";
import { organizationIdSchema, parseInput } from "@/lib/services/validation";
import { newId } from "@/db/ids";
import { toSetSummary } from "./summaries";
import type { SetSummary } from "./types";

const SET_NAME_MAX_LENGTH = 200;

/** A calendar date written YYYY-MM-DD that exists (no 31 February). */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine((value) => new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), "is not a calendar date");

const CreateSetInput = z.object({
  organizationId: organizationIdSchema,
  userId: z.string().min(1),
  name: z.string().trim().min(1, "give the set a name").max(SET_NAME_MAX_LENGTH, `at most ${SET_NAME_MAX_LENGTH} characters`),
  presentationDate: isoDateSchema.nullish(),
});

export async function createSet(
  db: Db,
  input: { organizationId: string; userId: string; name: string; presentationDate?: string | null },
): Promise<SetSummary> {
  const params = parseInput(CreateSetInput, input);
  const row = await insertDocumentSet(db, {
    id: newId("set"),
    organizationId: params.organizationId,
    name: params.name,
    presentationDate: params.presentationDate ?? null,
    createdBy: params.userId,
  });
  return toSetSummary({ ...row, fileCount: 0, pageCount: 0, analyzingCount: 0, failedCount: 0 });
}
