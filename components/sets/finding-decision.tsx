"use client";

import { useEffect, useId, useState } from "react";
import { Alert, Badge, Button, formatDateTime } from "@/components/ui";
import type { FindingDecisionKind, SetFinding } from "@/lib/sets/types";
import { decisionsUrl, useSetChange } from "./set-query";

interface DecisionBody {
  findingKey: string;
  decision: FindingDecisionKind;
  note?: string;
}

/**
 * A checker's decision on one finding: accept (the discrepancy stands) or
 * waive with a note saying why; a decided finding shows who decided and can
 * be reopened.
 */
export function FindingDecision({ setId, finding }: { setId: string; finding: SetFinding }) {
  const change = useSetChange<DecisionBody>(setId, decisionsUrl(setId), "POST");
  const [note, setNote] = useState<string | null>(null);
  const id = useId();
  const decision = finding.decision;
  const waiving = note !== null;

  useEffect(() => {
    if (waiving) document.getElementById(`${id}-note`)?.focus();
  }, [waiving, id]);

  if (finding.severity === "info") return null;
  // A refusal is shown by the alert above; the promise only says whether to close the note.
  const decide = (body: Omit<DecisionBody, "findingKey">) => change.mutateAsync({ findingKey: finding.key, ...body }).then(() => true, () => false);

  return (
    <div className="finding-decision">
      {change.error && <Alert tone="danger" title="The decision was not saved">{change.error.message}</Alert>}
      {decision ? (
        <div className="decision-made">
          <Badge tone={decision.decision === "accept" ? "danger" : "success"}>{decision.decision === "accept" ? "Accepted: stands" : "Waived"}</Badge>
          <span className="muted">{decision.decidedBy ?? "someone"}, {formatDateTime(decision.decidedAt)}</span>
          {decision.note && <p className="decision-note">{decision.note}</p>}
          <Button size="sm" variant="ghost" loading={change.isPending} onClick={() => void decide({ decision: "reopen" })}>Reopen</Button>
        </div>
      ) : waiving ? (
        <form
          className="decision-waive"
          onSubmit={(e) => {
            e.preventDefault();
            void decide({ decision: "waive", note }).then((saved) => saved && setNote(null));
          }}
          onKeyDown={(e) => {
            if (e.key === "Escape") setNote(null);
          }}
        >
          <label htmlFor={`${id}-note`}>Why is this finding waived?</label>
          <textarea id={`${id}-note`} className="input" rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
          <div className="decision-actions">
            <Button type="submit" size="sm" variant="primary" loading={change.isPending} disabled={note.trim() === ""}>Waive</Button>
            <Button size="sm" variant="ghost" onClick={() => setNote(null)}>Cancel</Button>
          </div>
        </form>
      ) : (
        <div className="decision-actions">
          <span className="muted">Open</span>
          <Button size="sm" variant="secondary" loading={change.isPending} onClick={() => void decide({ decision: "accept" })}>Accept</Button>
          <Button size="sm" variant="ghost" onClick={() => setNote("")}>Waive…</Button>
        </div>
      )}
    </div>
  );
}
