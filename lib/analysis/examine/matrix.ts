/**
 * The comparison matrix the web app renders beside the findings: one column
 * per document, one row per fact; a row's status follows the findings of its
 * rules, so the matrix and the findings never disagree.
 */
import type { Fields } from "./fields";
import { isAmendment, type Doc, type Presentation } from "./presentation";
import { valuesDiffer } from "./matrix-compare";
import { MATRIX_ROWS, type RowSpec } from "./matrix-rows";
import type { ComparisonMatrix, Finding, MatrixCell, MatrixColumn, MatrixRow } from "./types";

function roleOf(p: Presentation, doc: Doc): MatrixColumn["role"] {
  if (doc.typeId === "letter_of_credit") return p.credit && p.credit.docs.includes(doc) && isAmendment(p.credit, doc) ? "amendment" : "credit";
  if (doc.typeId === "document_instruction") return "instruction";
  if (doc.typeId === "contract") return "contract";
  return "presented";
}

const ROLE_ORDER: MatrixColumn["role"][] = ["credit", "amendment", "instruction", "contract", "presented"];

function cellValueOf(fields: Fields, key: string): MatrixCell["value"] {
  const value = fields[key];
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim()) return value.trim();
  if (Array.isArray(value)) {
    const items = value.filter((v): v is string => typeof v === "string");
    return items.length ? items : null;
  }
  return null;
}

/**
 * What a column shows: a document's own fields, except an amendment, which
 * shows the terms it changed (an MT707's :32B: is an increase, not the amount).
 */
function fieldsOf(p: Presentation, doc: Doc): Fields {
  if (!p.credit || !isAmendment(p.credit, doc)) return doc.fields;
  return Object.assign({}, ...p.credit.amendments.filter((a) => a.doc === doc).map((a) => a.changes)) as Fields;
}

/** `restates`: false for an amendment, which need not restate the credit's terms (never "missing"). */
function cellOf(spec: RowSpec, doc: Doc, fields: Fields, restates: boolean): MatrixCell {
  const where = doc.typeId ? spec.fields[doc.typeId] : undefined;
  if (!where) return { value: null, state: "absent" };
  const keys = Array.isArray(where) ? where : [where];
  const values = keys.map((k) => cellValueOf(fields, k));
  const [first] = values;
  const value = keys.length > 1 ? (first === null || first === undefined ? null : values.filter((v) => v !== null).join(" ")) : (first ?? null);
  const field = keys[0]!;
  if (value !== null) return { value, state: "present", field };
  return { value: null, state: restates && doc.typeId && spec.expectedOn.includes(doc.typeId) ? "missing" : "absent", field };
}

function concerns(finding: Finding, spec: RowSpec): boolean {
  if (!spec.rules.includes(finding.rule) || finding.severity === "info") return false;
  const keys = new Set(Object.values(spec.fields).flat());
  return finding.fields.length === 0 || finding.fields.some((f) => keys.has(f));
}

function rowOf(spec: RowSpec, columns: Doc[], findings: Finding[], p: Presentation): MatrixRow {
  const cells = columns.map((d) => cellOf(spec, d, fieldsOf(p, d), roleOf(p, d) !== "amendment"));
  const row: MatrixRow = { key: spec.key, label: spec.label, cells, status: "agree", rules: spec.rules };
  const against = findings.filter((f) => concerns(f, spec));
  const missing = columns.filter((_, i) => cells[i]!.state === "missing");
  if (against.length) {
    row.status = "mismatch";
    row.reason = against.map((f) => f.message).join(" ");
  } else if (missing.length) {
    row.status = "missing";
    row.reason = `Not shown on: ${missing.map((d) => `${d.type} (${d.id})`).join(", ")}.`;
  } else if (cells.filter((c) => c.state === "present").length < 2 || spec.compare === "none") {
    row.status = "not_compared";
  } else if (valuesDiffer(spec.compare, cells, p.tolerances)) {
    row.status = "differs";
    row.reason = "The documents show different values here, which no rule treats as a discrepancy.";
  }
  return row;
}

export function buildMatrix(p: Presentation, findings: Finding[]): ComparisonMatrix {
  const columns = [...p.all].sort((a, b) => ROLE_ORDER.indexOf(roleOf(p, a)) - ROLE_ORDER.indexOf(roleOf(p, b)));
  return {
    columns: columns.map((d) => {
      const column: MatrixColumn = { id: d.id, type: d.type, pages: d.pages, role: roleOf(p, d) };
      if (d.fileName !== undefined) column.fileName = d.fileName;
      return column;
    }),
    rows: MATRIX_ROWS.map((spec) => rowOf(spec, columns, findings, p)),
  };
}
