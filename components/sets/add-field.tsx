"use client";

import { useState } from "react";
import { Button } from "@/components/ui";
import type { FieldKind } from "@/lib/analysis";
import { FieldInput, valueOfDraft } from "./field-input";
import { labelOfKey } from "./format";

/** Adds a value the engine did not read: the fields of the document's type that it has not got. */
export function AddField({ missing, busy, onAdd }: { missing: [string, FieldKind][]; busy: boolean; onAdd: (field: string, value: unknown) => Promise<unknown> }) {
  const [field, setField] = useState("");
  const [draft, setDraft] = useState("");
  if (missing.length === 0) return null;
  const kind = missing.find(([key]) => key === field)?.[1];

  return (
    <form
      className="add-field"
      aria-label="Add a value the reading missed"
      onSubmit={(e) => {
        e.preventDefault();
        if (!kind) return;
        // A refusal keeps what was typed; its words are shown by the fields' alert.
        void onAdd(field, valueOfDraft(kind, draft)).then(
          () => {
            setField("");
            setDraft("");
          },
          () => undefined,
        );
      }}
    >
      <label htmlFor="add-field-name">Add a value</label>
      <select id="add-field-name" className="select select-sm" value={field} onChange={(e) => setField(e.target.value)}>
        <option value="">Choose a field…</option>
        {missing.map(([key]) => <option key={key} value={key}>{labelOfKey(key)}</option>)}
      </select>
      {kind && <FieldInput id="add-field-value" kind={kind} label={`Value of ${labelOfKey(field)}`} value={draft} onChange={setDraft} />}
      <Button type="submit" size="sm" variant="secondary" disabled={!kind || draft.trim() === ""} loading={busy}>Add</Button>
    </form>
  );
}
