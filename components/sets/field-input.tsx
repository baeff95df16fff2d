"use client";

import type { FieldKind } from "@/lib/analysis";

/** What a checker types for a field, as the text the control holds. */
export function draftOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.join("\n");
  return String(value);
}

/** The draft as the route takes it: lists one item a line; the server checks and normalises the rest. */
export function valueOfDraft(kind: FieldKind, draft: string): unknown {
  if (kind === "string[]") return draft.split("\n").map((line) => line.trim()).filter(Boolean);
  return draft;
}

/** The control that fits the field's kind: a list of choices, a date, a figure, lines, or text. */
export function FieldInput({ id, kind, label, value, onChange, describedBy }: {
  id: string;
  kind: FieldKind;
  label: string;
  value: string;
  onChange: (value: string) => void;
  describedBy?: string;
}) {
  const common = { id, "aria-label": label, "aria-describedby": describedBy, value, onChange: (e: { target: { value: string } }) => onChange(e.target.value) };
  if (typeof kind === "object" && "enum" in kind) {
    return (
      <select className="select select-sm" {...common}>
        <option value="">Choose…</option>
        {kind.enum.map((option) => <option key={option} value={option}>{option}</option>)}
      </select>
    );
  }
  if (kind === "string[]") return <textarea className="input field-input" rows={3} {...common} />;
  if (kind === "date") return <input className="input field-input" type="date" {...common} />;
  return <input className="input field-input" type="text" inputMode={kind === "number" ? "decimal" : undefined} autoComplete="off" {...common} />;
}
