"use client";

import { Badge, type BadgeTone } from "@/components/ui";
import type { Severity } from "@/lib/analysis";
import type { SetFinding } from "@/lib/sets/types";
import { FindingDecision } from "./finding-decision";
import { formatPages } from "./format";

const TONE: Record<Severity, BadgeTone> = { discrepancy: "danger", warning: "warning", info: "neutral" };
const TITLE: Record<Severity, string> = { discrepancy: "Discrepancy", warning: "Warning", info: "Note" };

/** The examination's findings, most serious first, each leading to the pages it concerns, each with the checker's decision. */
export function FindingsList({ setId, findings, onOpen }: { setId: string; findings: SetFinding[]; onOpen: (documentId: string, page?: number) => void }) {
  const discrepancies = findings.filter((f) => f.severity === "discrepancy").length;
  return (
    <aside className="findings" aria-labelledby="findings-title">
      <h2 id="findings-title">
        Findings <span className="muted findings-count">{discrepancies} discrepanc{discrepancies === 1 ? "y" : "ies"} · {findings.length} in all</span>
      </h2>
      {findings.length === 0 ? (
        <p className="muted">No discrepancies: the documents agree with each other and with the credit.</p>
      ) : (
        <ol className="finding-list">
          {findings.map((finding, i) => (
            <li key={`${finding.key}-${i}`} className={`finding finding-${finding.severity}`} data-rule={finding.rule}>
              <div className="finding-head">
                <Badge tone={TONE[finding.severity]}>{TITLE[finding.severity]}</Badge>
                <span className="finding-ref">{finding.reference}</span>
              </div>
              <p className="finding-message">{finding.message}</p>
              {(finding.expected || finding.found) && (
                <dl className="finding-values">
                  {finding.expected && (<><dt>Expected</dt><dd>{finding.expected}</dd></>)}
                  {finding.found && (<><dt>Found</dt><dd>{finding.found}</dd></>)}
                </dl>
              )}
              {finding.documents.length > 0 && (
                <div className="finding-docs">
                  {finding.documents.map((doc) => (
                    <button key={doc.id} type="button" className="finding-doc" onClick={() => onOpen(doc.id, doc.pages[0])}>
                      {doc.type} {formatPages(doc.pages)}
                    </button>
                  ))}
                </div>
              )}
              <FindingDecision setId={setId} finding={finding} />
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}
