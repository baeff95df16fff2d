"use client";

import { useEffect, useState } from "react";
import { Badge, Button, formatDateTime } from "@/components/ui";
import type { FieldKind, Evidence } from "@/lib/analysis";
import type { FieldCorrectionView } from "@/lib/sets/types";
import { draftOf, FieldInput, valueOfDraft } from "./field-input";
import { formatValue, labelOfKey } from "./format";

/** Below this the value was read with doubt (OCR), and the table says so. */
const LOW_CONFIDENCE = 0.8;

export interface FieldRowProps {
  field: string;
  value: unknown;
  kind: FieldKind | undefined;
  evidence: Evidence | undefined;
  correction: FieldCorrectionView | undefined;
  current: boolean;
  busy: boolean;
  onShow: () => void;
  onSave: (value: unknown) => Promise<unknown>;
}

/**
 * One extracted value beside its evidence: a button that shows where it was
 * read, and a correction made in place (Enter saves, Escape cancels). A
 * corrected value says so, with who and when, and can be put back; a value
 * read where a checker taught its layout says so, with where it was taught.
 */
export function FieldRow({ field, value, kind, evidence, correction, current, busy, onShow, onSave }: FieldRowProps) {
  const label = labelOfKey(field);
  const [draft, setDraft] = useState<string | null>(null);
  const editable = kind !== undefined && !(typeof kind === "object" && "objects" in kind);
  const inputId = `field-${field}`;
  const editing = draft !== null;
  const doubtful = evidence !== undefined && evidence.confidence < LOW_CONFIDENCE;

  // The control takes the focus when editing starts, and the Correct button gets it back when it ends.
  useEffect(() => {
    document.getElementById(editing ? inputId : `${inputId}-correct`)?.focus({ preventScroll: true });
  }, [editing, inputId]);

  async function save() {
    if (draft === null || !kind) return;
    // A refusal keeps the draft open; its words are shown by the table's alert.
    const saved = await onSave(valueOfDraft(kind, draft)).then(() => true, () => false);
    if (saved) setDraft(null);
  }

  return (
    <tr className={[current && "field-current", correction && "field-corrected"].filter(Boolean).join(" ") || undefined} data-field={field}>
      <th scope="row">{label}</th>
      <td>
        {draft !== null && kind ? (
          <form
            className="field-edit"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
            onKeyDown={(e) => {
              if (e.key === "Escape") setDraft(null);
            }}
          >
            <FieldInput id={inputId} kind={kind} label={`Corrected ${label}`} value={draft} onChange={setDraft} />
            <div className="field-edit-actions">
              <Button type="submit" size="sm" variant="primary" loading={busy}>Save</Button>
              <Button size="sm" variant="ghost" onClick={() => setDraft(null)}>Cancel</Button>
            </div>
          </form>
        ) : (
          <div className="field-cell">
            {evidence ? (
              <button
                type="button"
                className="field-value"
                aria-pressed={current}
                // Starts with the field, then exactly the visible text (WCAG 2.5.3), then what the button does.
                aria-label={`${label}: ${formatValue(value)} p. ${evidence.page}${doubtful ? " check" : ""}. Show where it was read`}
                onClick={onShow}
              >
                {formatValue(value)}{" "}
                <span className="field-page">p. {evidence.page}</span>
                {doubtful && <> <Badge tone="warning">check</Badge></>}
              </button>
            ) : (
              <span className="field-value-static">{formatValue(value)}</span>
            )}
            {correction && (
              <span className="field-correction">
                <Badge tone="success">Corrected</Badge>
                <span className="muted">
                  {correction.original === null ? "added" : <>was {formatValue(correction.original)}</>} · {correction.correctedBy ?? "someone"}, {formatDateTime(correction.correctedAt)}
                </span>
              </span>
            )}
            {!correction && evidence?.taught && (
              <span className="field-correction">
                <Badge tone="info">Learned</Badge>
                <span className="muted">read where it was taught on {evidence.taught.source}</span>
              </span>
            )}
          </div>
        )}
      </td>
      <td className="field-actions">
        {editable && draft === null && (
          <Button id={`${inputId}-correct`} size="sm" variant="ghost" aria-label={`Correct ${label}`} disabled={busy} onClick={() => setDraft(draftOf(value))}>
            Correct
          </Button>
        )}
        {correction && draft === null && (
          <Button size="sm" variant="ghost" aria-label={`Undo the correction of ${label}`} disabled={busy} onClick={() => void onSave(null).catch(() => undefined)}>
            Undo
          </Button>
        )}
      </td>
    </tr>
  );
}
