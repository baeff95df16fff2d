"use client";

import { Badge, Button } from "@/components/ui";
import type { SplitResult } from "@/lib/analysis";
import { DOCUMENT_TYPE_IDS, DOCUMENT_TYPES, idOfLabel } from "@/lib/analysis/schema";
import type { SplitCorrection } from "@/lib/sets/split-layout";
import type { SetFileView } from "@/lib/sets/types";
import { contentUrl, pageSheetUrl } from "./file-urls";
import { formatPages } from "./format";
import { PageImage } from "./page-image";

const THUMBNAIL_WIDTH = 92;

/** One document found in a file: its type, pages as thumbnails, and the hand corrections. */
export function SplitGroup({ setId, file, split, index, selected, busy, onSelect, onCorrect }: {
  setId: string;
  file: SetFileView;
  split: SplitResult;
  index: number;
  selected: boolean;
  busy: boolean;
  onSelect: (page?: number) => void;
  onCorrect: (correction: SplitCorrection) => void;
}) {
  const { document_type: label, pages } = split.split;
  const typeId = idOfLabel(label) ?? "other";
  const fieldCount = Object.keys(split.extracted).length;
  const title = `Document ${index + 1}: ${label}, ${formatPages(pages)}`;

  return (
    <div className={`split-group${selected ? " split-selected" : ""}`} data-type={typeId}>
      <div className="split-head">
        <div className="split-line">
        <button type="button" className="split-title" aria-pressed={selected} aria-label={`Open ${title}`} onClick={() => onSelect()}>
          {/* Spaces between the parts: the visible text must read as it does inside the accessible name (WCAG 2.5.3). */}
          <span className="split-number">{index + 1}</span>{" "}
          <Badge tone={typeId === "other" ? "neutral" : "info"}>{label}</Badge>{" "}
          <span className="split-pages">{formatPages(pages)}</span>
        </button>
        <span className="muted split-fields">{fieldCount} field{fieldCount === 1 ? "" : "s"}</span>
        </div>
        <div className="split-actions">
          <label className="visually-hidden" htmlFor={`type-${file.id}-${index}`}>Document type of document {index + 1}</label>
          <select
            id={`type-${file.id}-${index}`}
            className="select select-sm"
            value={typeId}
            disabled={busy}
            onChange={(e) => onCorrect({ action: "retype", splitIndex: index, documentType: e.target.value as typeof typeId })}
          >
            {DOCUMENT_TYPE_IDS.map((id) => (
              <option key={id} value={id}>{DOCUMENT_TYPES[id].label}</option>
            ))}
          </select>
          {index > 0 && (
            <Button size="sm" variant="ghost" className="split-merge" disabled={busy} aria-label={`Merge document ${index + 1} with the previous document`} title="Merge with the previous document" onClick={() => onCorrect({ action: "merge", splitIndex: index })}>
              Merge ←
            </Button>
          )}
        </div>
      </div>
      <ol className="thumbs" aria-label={`Pages of document ${index + 1}`}>
        {pages.map((page, i) => (
          <li key={page} className="thumb">
            <button type="button" className="thumb-button" aria-label={`Show page ${page}`} onClick={() => onSelect(page)}>
              <PageImage
                source={{ url: contentUrl(setId, file.id), sheetUrl: pageSheetUrl(setId, file.id, page), format: file.format, page, size: file.pageSizes[page - 1] }}
                width={THUMBNAIL_WIDTH}
                alt={`Page ${page}`}
              />
            </button>
            <span className="thumb-caption">p. {page}</span>
            {i > 0 && (
              <Button size="sm" variant="ghost" className="thumb-split" disabled={busy} aria-label={`Split here: start a new document at page ${page}`} onClick={() => onCorrect({ action: "split", page })}>
                Split here
              </Button>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
