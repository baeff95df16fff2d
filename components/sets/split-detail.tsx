"use client";

import { Badge } from "@/components/ui";
import type { Evidence, SplitResult } from "@/lib/analysis/types";
import type { SetFileView } from "@/lib/sets/types";
import type { Selection } from "./documents-view";
import { contentUrl, pageSheetUrl } from "./documents-view";
import { formatPages, formatValue, labelOfKey } from "./format";
import { PageImage } from "./page-image";

const VIEWER_WIDTH = 520;
/** Below this the value was read with doubt (OCR), and the table says so. */
const LOW_CONFIDENCE = 0.8;

/** The selected document: its fields (each a button to its evidence) and the page with the evidence box. */
export function SplitDetail({ setId, file, split, selection, onSelect }: {
  setId: string;
  file: SetFileView;
  split: SplitResult;
  selection: Selection;
  onSelect: (s: Selection) => void;
}) {
  const evidence = split.evidence ?? {};
  const entries = Object.entries(split.extracted);
  const chosen = selection.field ? evidence[selection.field] : undefined;
  const page = chosen?.page ?? (selection.page && split.split.pages.includes(selection.page) ? selection.page : split.split.pages[0]!);
  const boxes = Object.entries(evidence).filter(([, e]) => e.page === page);

  return (
    <div className="split-detail">
      <header className="detail-head">
        <Badge tone="info">{split.split.document_type}</Badge>
        <span>{formatPages(split.split.pages)}</span>
        <span className="muted detail-file">{file.fileName}</span>
      </header>
      <div className="detail-body">
      <div className="detail-fields">
      {entries.length === 0 ? (
        <p className="muted detail-empty">No fields are read from this type of document.</p>
      ) : (
        <table className="fields-table">
          <caption className="visually-hidden">Extracted fields</caption>
          <thead>
            <tr><th scope="col">Field</th><th scope="col">Value</th></tr>
          </thead>
          <tbody>
            {entries.map(([key, value]) => {
              const where = evidence[key];
              const current = selection.field === key;
              return (
                <tr key={key} className={current ? "field-current" : undefined}>
                  <th scope="row">{labelOfKey(key)}</th>
                  <td>
                    {where ? (
                      <button
                        type="button"
                        className="field-value"
                        aria-pressed={current}
                        aria-label={`${labelOfKey(key)}: ${formatValue(value)}. Show where it was read, page ${where.page}`}
                        onClick={() => onSelect({ ...selection, field: current ? undefined : key, page: where.page })}
                      >
                        {formatValue(value)}
                        <span className="field-page">p. {where.page}</span>
                        {where.confidence < LOW_CONFIDENCE && <Badge tone="warning">check</Badge>}
                      </button>
                    ) : (
                      <span className="field-value-static">{formatValue(value)}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      </div>
      <div className="viewer">
        <div className="viewer-bar">
          <span>Page {page}</span>
          <nav className="viewer-pages" aria-label="Pages of this document">
            {split.split.pages.map((p) => (
              <button key={p} type="button" className="viewer-page" aria-current={p === page ? "page" : undefined} onClick={() => onSelect({ ...selection, field: undefined, page: p })}>
                {p}
              </button>
            ))}
          </nav>
        </div>
        <PageImage
          source={{ url: contentUrl(setId, file.id), sheetUrl: pageSheetUrl(setId, file.id, page), format: file.format, page, size: file.pageSizes[page - 1] }}
          width={VIEWER_WIDTH}
          alt={`Page ${page} of ${file.fileName}`}
        >
          {boxes.map(([key, box]) => (
            <EvidenceBox key={key} evidence={box} label={labelOfKey(key)} active={key === selection.field} />
          ))}
        </PageImage>
        {chosen && (
          <p className="evidence-text">
            Read as <q>{chosen.text}</q>
            {chosen.confidence < 1 && <span className="muted"> · confidence {Math.round(chosen.confidence * 100)}%</span>}
          </p>
        )}
      </div>
      </div>
    </div>
  );
}

/** A box in fractions of the page (origin top-left) as an overlay on the drawn page. */
function EvidenceBox({ evidence, label, active }: { evidence: Evidence; label: string; active: boolean }) {
  const [x0, y0, x1, y1] = evidence.bbox;
  return (
    <span
      className={active ? "evidence-box evidence-active" : "evidence-box"}
      style={{ left: `${x0 * 100}%`, top: `${y0 * 100}%`, width: `${(x1 - x0) * 100}%`, height: `${(y1 - y0) * 100}%` }}
      title={label}
      aria-hidden={!active}
      data-field={label}
    />
  );
}
