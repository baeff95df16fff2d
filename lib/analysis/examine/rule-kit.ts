/** What every rule shares: its identity, and one way to write a finding. */
import { refOf, type Doc } from "./presentation";
import type { Finding, Severity } from "./types";

export interface RuleSpec {
  id: string;
  reference: string;
  /** The severity of a breach; a rule may report `info` when it cannot tell. */
  severity: Severity;
  /** What the rule checks, for the catalogue and the bench. */
  title: string;
}

export interface FindingDraft {
  documents: Doc[];
  fields: string[];
  message: string;
  expected?: string;
  found?: string;
  severity?: Severity;
}

export function report(rule: RuleSpec, draft: FindingDraft): Finding {
  const finding: Finding = {
    rule: rule.id,
    reference: rule.reference,
    severity: draft.severity ?? rule.severity,
    documents: draft.documents.map(refOf),
    fields: draft.fields,
    message: draft.message,
  };
  if (draft.expected !== undefined) finding.expected = draft.expected;
  if (draft.found !== undefined) finding.found = draft.found;
  return finding;
}

/** "1,234.50" for messages. */
export function formatNumber(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 3 });
}
