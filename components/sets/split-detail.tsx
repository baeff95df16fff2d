"use client";

import { Alert, Badge, Button, formatDateTime } from "@/components/ui";
import type { Evidence, SplitResult } from "@/lib/analysis";
import { DOCUMENT_TYPES, type FieldKind, idOfLabel } from "@/lib/analysis/schema";
import type { SetFileView } from "@/lib/sets/types";
import type { Selection } from "./selection";
import { contentUrl, pageSheetUrl } from "./file-urls";
import { AddField } from "./add-field";
import { FieldRow } from "./field-row";
import { formatPages, labelOfKey } from "./format";
import { PageImage } from "./page-image";
import { fieldsUrl, reviewsUrl, useSetChange } from "./set-query";

const VIEWER_WIDTH = 520;

/** The selected document: its fields (each a button to its evidence, each correctable), its review mark, and the page with the evidence box. */
export function SplitDetail({ setId, file, split, selection, onSelect }: {
  setId: string;
  file: SetFileView;
  split: SplitResult;
  selection: Selection;
  onSelect: (s: Selection) => void;
}) {
  const evidence = split.evidence ?? {};
  const typeId = idOfLabel(split.split.document_type);
  const kinds = (typeId ? DOCUMENT_TYPES[typeId].fields : {}) as Record<string, FieldKind>;
  const corrections = file.fieldCorrections.filter((c) => c.splitIndex === selection.splitIndex);
  const review = file.reviews.find((r) => r.splitIndex === selection.splitIndex);
  const changes = useSetChange<{ splitIndex: number; field: string; value: unknown }>(setId, fieldsUrl(setId, file.id), "PUT");
  const reviewing = useSetChange<{ splitIndex: number; reviewed: boolean }>(setId, reviewsUrl(setId, file.id), "PUT");
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
        <span className="detail-review">
          {review && <span className="muted">Reviewed by {review.reviewedBy ?? "someone"}, {formatDateTime(review.reviewedAt)}</span>}
          <Button
            size="sm"
            variant={review ? "ghost" : "secondary"}
            aria-pressed={Boolean(review)}
            loading={reviewing.isPending}
            onClick={() => reviewing.mutate({ splitIndex: selection.splitIndex, reviewed: !review })}
          >
            {review ? "Reviewed ✓" : "Mark reviewed"}
          </Button>
        </span>
      </header>
      {reviewing.error && <Alert tone="danger" title="The review mark was not saved">{reviewing.error.message}</Alert>}
      <div className="detail-body">
      <div className="detail-fields">
      {changes.error && <Alert tone="danger" title="The value was not saved">{changes.error.message}</Alert>}
      {entries.length === 0 ? (
        <p className="muted detail-empty">No fields are read from this type of document.</p>
      ) : (
        <table className="fields-table">
          <caption className="visually-hidden">Extracted fields</caption>
          <thead>
            <tr><th scope="col">Field</th><th scope="col">Value</th><th scope="col"><span className="visually-hidden">Corrections</span></th></tr>
          </thead>
          <tbody>
            {entries.map(([key, value]) => (
              <FieldRow
                key={`${selection.splitIndex}-${key}`}
                field={key}
                value={value}
                kind={kinds[key]}
                evidence={evidence[key]}
                correction={corrections.find((c) => c.field === key)}
                current={selection.field === key}
                busy={changes.isPending}
                onShow={() => onSelect({ ...selection, field: selection.field === key ? undefined : key, page: evidence[key]!.page })}
                onSave={(v) => changes.mutateAsync({ splitIndex: selection.splitIndex, field: key, value: v })}
              />
            ))}
          </tbody>
        </table>
      )}
      <AddField
        key={selection.splitIndex}
        missing={Object.entries(kinds).filter(([key, kind]) => !(key in split.extracted) && !(typeof kind === "object" && "objects" in kind))}
        busy={changes.isPending}
        onAdd={(field, v) => changes.mutateAsync({ splitIndex: selection.splitIndex, field, value: v })}
      />
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
