"use client";

import type { MatrixColumn, MatrixRow, RowStatus } from "@/lib/analysis";
import type { RowTolerance } from "@/lib/sets/tolerance-notes";
import type { SetExamination } from "@/lib/sets/types";
import { formatPages } from "./format";
import { cellNumber, cellText, referenceIndex, sameValue } from "./matrix-values";
import { ValueDiff } from "./value-diff";

const STATUS_TEXT: Record<RowStatus, string> = {
  agree: "Agrees",
  mismatch: "Mismatch",
  missing: "Missing",
  differs: "Differs",
  not_compared: "",
};
const ROLE_TEXT: Record<MatrixColumn["role"], string> = {
  credit: "Credit",
  amendment: "Amendment",
  instruction: "Instructions",
  contract: "Contract",
  presented: "Presented",
};
const DELTA = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 2, signDisplay: "always" });

/** One column per document, one row per fact; rows no document carries are left out. */
export function ComparisonTable({ examination, onOpen }: { examination: SetExamination; onOpen: (documentId: string, page?: number) => void }) {
  const { columns, rows } = examination.matrix;
  const shown = rows.filter((r) => r.cells.some((c) => c.state !== "absent"));
  const hidden = rows.length - shown.length;
  return (
    <div className="matrix-scroll">
      <table className="matrix">
        <caption className="visually-hidden">Facts that must agree across the documents of the set</caption>
        <thead>
          <tr>
            <th scope="col" className="matrix-corner">Fact</th>
            {columns.map((col) => (
              <th key={col.id} scope="col" className="matrix-col">
                <button type="button" className="matrix-col-button" onClick={() => onOpen(col.id, col.pages[0])} aria-label={`Open ${col.type} ${ROLE_TEXT[col.role]} · ${formatPages(col.pages)}`}>
                  {/* The name holds the visible text as it reads (WCAG 2.5.3), hence the space between the parts. */}
                  <span className="matrix-col-type">{col.type}</span>{" "}
                  <span className="matrix-col-meta">{ROLE_TEXT[col.role]} · {formatPages(col.pages)}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <MatrixRowView key={row.key} row={row} tolerance={examination.tolerances[row.key]} />
          ))}
        </tbody>
      </table>
      {hidden > 0 && (
        <p className="muted matrix-footnote">
          {hidden === 1 ? "1 fact that no document of this set carries is" : `${hidden} facts that no document of this set carries are`} not shown.
        </p>
      )}
    </div>
  );
}

function MatrixRowView({ row, tolerance }: { row: MatrixRow; tolerance: RowTolerance | undefined }) {
  const flagged = row.status === "mismatch" || row.status === "differs";
  const same = sameValue(tolerance);
  const reference = flagged ? referenceIndex(row.cells, same) : undefined;
  const referenceCell = reference === undefined ? undefined : row.cells[reference];
  return (
    <tr className={`matrix-row row-${row.status}`} data-row={row.key}>
      <th scope="row" className="matrix-fact">
        <span className="fact-label">{row.label}</span>
        {STATUS_TEXT[row.status] && <span className={`fact-status status-${row.status}`}>{STATUS_TEXT[row.status]}</span>}
        {row.reason && row.status !== "agree" && <span className="fact-reason" title={row.reason}>{row.reason}</span>}
        {tolerance && <span className="fact-tolerance">Tolerance {tolerance.text}</span>}
      </th>
      {row.cells.map((cell, i) => {
        if (cell.state === "absent") return <td key={i} className="cell-absent" aria-label="Not carried by this document" />;
        if (cell.state === "missing") return <td key={i} className="cell-missing">Missing</td>;
        const text = cellText(cell.value);
        const odd = referenceCell !== undefined && i !== reference && !same(cell.value, referenceCell.value);
        if (!odd) return <td key={i} className={i === reference ? "cell-reference" : undefined}>{text}</td>;
        const [mine, theirs] = [cellNumber(cell.value), cellNumber(referenceCell.value)];
        const numeric = typeof cell.value === "number" || (mine !== undefined && theirs !== undefined && /^[\d.,\s]+$/.test(text));
        return (
          <td key={i} className="cell-off">
            {numeric && mine !== undefined && theirs !== undefined ? (
              <>
                {text} <span className="cell-delta">({DELTA.format(mine - theirs)})</span>
              </>
            ) : (
              <ValueDiff reference={cellText(referenceCell.value)} value={text} />
            )}
          </td>
        );
      })}
    </tr>
  );
}
