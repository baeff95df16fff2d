import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { newId } from "@/db/ids";
import { insertAuditEvent } from "@/db/queries/audit-events";
import { insertFindingDecision } from "@/db/queries/set-review";
import { ApiError } from "@/lib/errors";
import { parseInput } from "@/lib/services/validation";
import { getSet } from "./get-set";

const DECISION_NOTE_MAX_LENGTH = 2000;

const DecisionInput = z
  .object({
    findingKey: z.string().min(1, "name the finding").max(1000),
    decision: z.enum(["accept", "waive", "reopen"], { error: "accept, waive or reopen" }),
    note: z.string().trim().max(DECISION_NOTE_MAX_LENGTH, `at most ${DECISION_NOTE_MAX_LENGTH} characters`).nullish(),
  })
  // A waiver is the checker's judgement against the rule: the file must say why.
  .refine((d) => d.decision !== "waive" || (d.note ?? "").length > 0, { path: ["note"], message: "say why the finding is waived" });

/**
 * Records a decision on a finding of the set's current examination: accept
 * (the discrepancy stands), waive (with a note) or reopen. Kept with who and
 * when and audited in the same transaction; the set's status follows.
 */
export async function decideFinding(
  db: Db,
  params: { organizationId: string; setId: string; userId: string; input: unknown },
): Promise<void> {
  const input = parseInput(DecisionInput, params.input);
  await db.transaction(async (tx) => {
    const view = await getSet(tx, params);
    if (!view.examination) throw new ApiError("conflict", "The set has not been examined yet; decide on findings once every file is analysed.");
    const finding = view.examination.findings.find((f) => f.key === input.findingKey);
    if (!finding) throw new ApiError("conflict", "The set's examination has no such finding any more; reload the set.");
    await insertFindingDecision(tx, {
      id: newId("dec"),
      organizationId: params.organizationId,
      setId: params.setId,
      findingKey: input.findingKey,
      decision: input.decision,
      note: input.note || null,
      createdBy: params.userId,
    });
    await insertAuditEvent(tx, {
      organizationId: params.organizationId,
      actor: params.userId,
      action: `document_set.finding_${input.decision === "accept" ? "accepted" : input.decision === "waive" ? "waived" : "reopened"}`,
      target: params.setId,
      detail: { rule: finding.rule, reference: finding.reference, note: input.note || null, message: finding.message },
    });
  });
}
