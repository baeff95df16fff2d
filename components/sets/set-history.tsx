"use client";

import { EmptyState, formatDateTime } from "@/components/ui";
import type { HistoryEntry } from "@/lib/sets/types";
import { labelOfKey } from "./format";

const VERBS: Record<string, string> = {
  "document_set.value_corrected": "corrected",
  "document_set.value_restored": "put back the value read for",
  "document_set.layout_taught": "taught the layout where to read",
  "document_set.layout_field_forgotten": "made the layout forget where to read",
  "document_set.document_reviewed": "marked reviewed",
  "document_set.review_withdrawn": "withdrew the review of",
  "document_set.finding_accepted": "accepted the finding",
  "document_set.finding_waived": "waived the finding",
  "document_set.finding_reopened": "reopened the finding",
};

function describeEntry(entry: HistoryEntry): string {
  const d = entry.detail as Record<string, string | null | undefined>;
  const verb = VERBS[entry.action] ?? entry.action;
  if (d.field) return `${verb} ${labelOfKey(d.field)} on the ${d.document} (pp. ${d.pages}) of ${d.fileName}`;
  if (d.rule) return `${verb} ${d.reference ?? d.rule}: ${d.message ?? ""}`;
  return `${verb} the ${d.document} (pp. ${d.pages}) of ${d.fileName}`;
}

/** The set's audit trail: who corrected, reviewed and decided what, and when (newest first). */
export function SetHistory({ history }: { history: HistoryEntry[] }) {
  if (history.length === 0) return <EmptyState title="Nothing decided yet">Corrections, review marks and decisions on findings are listed here with who made them and when.</EmptyState>;
  return (
    <ol className="set-history" aria-label="History of this set">
      {history.map((entry, i) => (
        <li key={`${entry.at}-${i}`} className="history-entry">
          <time dateTime={entry.at} className="muted">{formatDateTime(entry.at)}</time>
          <span><strong>{entry.actor}</strong> {describeEntry(entry)}</span>
          {typeof entry.detail.note === "string" && entry.detail.note && <q className="history-note">{entry.detail.note}</q>}
        </li>
      ))}
    </ol>
  );
}
