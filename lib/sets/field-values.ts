/**
 * A value typed by a checker, checked against the kind the analysis contract
 * gives its field (lib/analysis/schema.ts) and normalised as the engine
 * writes it: dates YYYY-MM-DD, figures as numbers, lists as arrays.
 */
import { DOCUMENT_TYPES, idOfLabel, type FieldKind } from "@/lib/analysis";
import { ApiError } from "@/lib/errors";
import { isoDateSchema } from "./create-set";

/** A corrected text is a value read off a document, never an essay. */
const FIELD_VALUE_MAX_LENGTH = 2000;
const LIST_MAX_ITEMS = 100;

/** The kind of `field` on a document of `typeLabel`, or a 400 naming what is wrong. */
export function fieldKindOf(typeLabel: string, field: string): FieldKind {
  const type = idOfLabel(typeLabel);
  const fields = type ? (DOCUMENT_TYPES[type].fields as Record<string, FieldKind>) : undefined;
  const kind = fields && Object.hasOwn(fields, field) ? fields[field] : undefined;
  if (!kind) throw new ApiError("invalid_input", `field: a ${typeLabel} has no field ${field}.`);
  if (typeof kind === "object" && "objects" in kind) {
    throw new ApiError("invalid_input", `field: ${field} is a table of rows and cannot be corrected as one value.`);
  }
  return kind;
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new ApiError("invalid_input", `value: give ${field} a value.`);
  const trimmed = value.trim();
  if (trimmed.length > FIELD_VALUE_MAX_LENGTH) throw new ApiError("invalid_input", `value: at most ${FIELD_VALUE_MAX_LENGTH} characters.`);
  return trimmed;
}

/** Normalises `value` for a field of `kind`; an ApiError says what is wrong with it. */
export function normalizeFieldValue(kind: FieldKind, field: string, value: unknown): string | number | string[] {
  if (kind === "number") {
    const parsed = typeof value === "number" ? value : Number(text(value, field).replace(/[\s,]/g, ""));
    if (!Number.isFinite(parsed)) throw new ApiError("invalid_input", `value: ${field} is a number, such as 49080.5.`);
    return parsed;
  }
  if (kind === "date") {
    const date = text(value, field);
    if (!isoDateSchema.safeParse(date).success) throw new ApiError("invalid_input", `value: ${field} is a date written YYYY-MM-DD.`);
    return date;
  }
  if (kind === "string[]") {
    const items = (Array.isArray(value) ? value : [value]).map((item) => text(item, field));
    if (items.length > LIST_MAX_ITEMS) throw new ApiError("invalid_input", `value: at most ${LIST_MAX_ITEMS} items.`);
    return items;
  }
  if (typeof kind === "object" && "enum" in kind) {
    const chosen = text(value, field).toLowerCase();
    if (!kind.enum.includes(chosen)) throw new ApiError("invalid_input", `value: ${field} is one of ${kind.enum.join(", ")}.`);
    return chosen;
  }
  return text(value, field);
}
