import { DOCUMENT_TYPE_IDS, DOCUMENT_TYPES, type DocumentTypeId, type FieldKind } from "@/lib/analysis";

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = { [keyword: string]: unknown };

/** Where a split's schema lives under components.schemas, e.g. `BillOfLading`. */
export function splitSchemaName(id: DocumentTypeId): string {
  return id
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

/** The JSON Schema of one `extracted` value kind (see lib/analysis/schema.ts). */
function schemaOfKind(kind: FieldKind): JsonSchema {
  if (kind === "string") return { type: "string", minLength: 1 };
  if (kind === "date") return { type: "string", format: "date", description: "YYYY-MM-DD" };
  if (kind === "number") return { type: "number" };
  if (kind === "string[]") return { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true };
  if ("enum" in kind) return { type: "string", enum: [...kind.enum] };
  const properties = Object.fromEntries(kind.objects.map((key) => [key, {}]));
  return { type: "array", items: { type: "object", properties, additionalProperties: false } };
}

/** Where the `split` object of a document type's result lives, e.g. `BillOfLadingSplit`. */
function splitPartName(id: DocumentTypeId): string {
  return `${splitSchemaName(id)}Split`;
}

/** The `split` object of one document type: its label as a constant, so the type can be told apart. */
function splitPartSchema(id: DocumentTypeId): JsonSchema {
  return {
    type: "object",
    required: ["document_type", "pages"],
    properties: {
      document_type: { type: "string", const: DOCUMENT_TYPES[id].label },
      pages: { type: "array", items: { type: "integer", minimum: 1 }, minItems: 1, description: "1-based page numbers, ascending." },
    },
  };
}

function splitSchema(id: DocumentTypeId): JsonSchema {
  const type = DOCUMENT_TYPES[id];
  const fields: Record<string, FieldKind> = type.fields;
  const properties = Object.fromEntries(Object.entries(fields).map(([key, kind]) => [key, schemaOfKind(kind)]));
  return {
    title: type.label,
    description: type.describes,
    type: "object",
    required: ["split", "extracted"],
    properties: {
      split: { $ref: `#/components/schemas/${splitPartName(id)}` },
      extracted: {
        type: "object",
        description: "Only the keys the document carries; a value not in the document is left out, never guessed.",
        properties,
        additionalProperties: false,
      },
      evidence: {
        type: "object",
        description: "Present only with ?evidence=true: where each extracted value was read, keyed like `extracted`.",
        additionalProperties: { $ref: "#/components/schemas/Evidence" },
      },
    },
  };
}

const DOCUMENT_LABEL: JsonSchema = { type: "string", description: "A `document_type` label (open-ended, as in SplitResult)." };
const PAGES: JsonSchema = { type: "array", items: { type: "integer", minimum: 1 }, description: "1-based pages of the uploaded file the document spans." };

/** The compare result (lib/analysis/examine/types.ts): findings and the comparison matrix. */
function examinationSchemas(): Record<string, JsonSchema> {
  return {
    ExaminationResult: {
      type: "object",
      required: ["findings", "matrix"],
      properties: {
        findings: { type: "array", items: { $ref: "#/components/schemas/Finding" } },
        matrix: { $ref: "#/components/schemas/ComparisonMatrix" },
      },
      additionalProperties: false,
    },
    Finding: {
      type: "object",
      required: ["rule", "reference", "severity", "documents", "fields", "message"],
      properties: {
        rule: { type: "string", description: "Stable rule id, e.g. `invoice.amount_within_credit`." },
        reference: { type: "string", description: "Where the rule comes from, e.g. `UCP 600 art. 18(b)`." },
        severity: { type: "string", enum: ["discrepancy", "warning", "info"] },
        documents: { type: "array", items: { $ref: "#/components/schemas/FindingDocument" } },
        fields: { type: "array", items: { type: "string" }, description: "Extracted keys involved." },
        expected: { type: "string" },
        found: { type: "string" },
        message: { type: "string", description: "One sentence as a document checker writes it." },
      },
      additionalProperties: false,
    },
    FindingDocument: {
      type: "object",
      required: ["id", "type", "pages"],
      properties: {
        id: { type: "string", description: "`<file name>#<split number>`, e.g. `invoice.pdf#2`." },
        type: DOCUMENT_LABEL,
        pages: PAGES,
      },
      additionalProperties: false,
    },
    ComparisonMatrix: {
      type: "object",
      required: ["columns", "rows"],
      properties: {
        columns: { type: "array", items: { $ref: "#/components/schemas/MatrixColumn" } },
        rows: { type: "array", items: { $ref: "#/components/schemas/MatrixRow" } },
      },
      additionalProperties: false,
    },
    MatrixColumn: {
      type: "object",
      required: ["id", "type", "pages", "role"],
      properties: {
        id: { type: "string" },
        fileName: { type: "string" },
        type: DOCUMENT_LABEL,
        pages: PAGES,
        role: { type: "string", enum: ["credit", "amendment", "instruction", "contract", "presented"] },
      },
      additionalProperties: false,
    },
    MatrixRow: {
      type: "object",
      required: ["key", "label", "cells", "status", "rules"],
      properties: {
        key: { type: "string" },
        label: { type: "string" },
        cells: { type: "array", items: { $ref: "#/components/schemas/MatrixCell" }, description: "One cell per column, in column order." },
        status: { type: "string", enum: ["agree", "mismatch", "missing", "differs", "not_compared"] },
        reason: { type: "string", description: "Why the row is a mismatch or missing." },
        rules: { type: "array", items: { type: "string" }, description: "Rule ids whose findings decide the status." },
      },
      additionalProperties: false,
    },
    MatrixCell: {
      type: "object",
      required: ["value", "state"],
      properties: {
        value: { type: ["string", "number", "array", "null"], items: { type: "string" } },
        state: { type: "string", enum: ["present", "missing", "absent"] },
        field: { type: "string", description: "The extracted key the value came from." },
      },
      additionalProperties: false,
    },
  };
}

/** Every schema the analyze and compare results refer to, keyed for components.schemas. */
/** compareDocuments' answer for a credit and two presented documents, one discrepancy found. */
export const EXAMINATION_EXAMPLE = {
  findings: [
    {
      rule: "invoice.amount_within_credit",
      reference: "UCP 600 art. 18(b), 30(a)",
      severity: "discrepancy",
      documents: [
        { id: "mt700.pdf#1", type: "Letter of Credit", pages: [1, 2] },
        { id: "documents.pdf#1", type: "Commercial Invoice", pages: [1] },
      ],
      fields: ["total_amount"],
      expected: "at most USD 48,250.00",
      found: "USD 49,100.00",
      message: "The invoice amount USD 49,100.00 exceeds the credit amount USD 48,250.00.",
    },
  ],
  matrix: {
    columns: [
      { id: "mt700.pdf#1", fileName: "mt700.pdf", type: "Letter of Credit", pages: [1, 2], role: "credit" },
      { id: "documents.pdf#1", fileName: "documents.pdf", type: "Commercial Invoice", pages: [1], role: "presented" },
      { id: "documents.pdf#2", fileName: "documents.pdf", type: "Bill of Lading", pages: [2, 3], role: "presented" },
    ],
    rows: [
      {
        key: "port_of_loading",
        label: "Port of loading",
        cells: [
          { value: "Santos", state: "present", field: "port_of_loading" },
          { value: "Santos", state: "present", field: "port_of_loading" },
          { value: "Santos, Brazil", state: "present", field: "port_of_loading" },
        ],
        status: "agree",
        rules: ["shipment.port_of_loading", "consistency.ports"],
      },
    ],
  },
};

export function resultSchemas(): Record<string, JsonSchema> {
  const splits = Object.fromEntries(DOCUMENT_TYPE_IDS.map((id) => [splitSchemaName(id), splitSchema(id)]));
  const splitParts = Object.fromEntries(DOCUMENT_TYPE_IDS.map((id) => [splitPartName(id), splitPartSchema(id)]));
  return {
    AnalysisResult: {
      type: "array",
      description: "One element per document found in the input, in page order.",
      items: { $ref: "#/components/schemas/SplitResult" },
    },
    SplitResult: {
      description:
        "One split document. Which `extracted` keys may appear depends on `split.document_type` (one schema per type, " +
        "told apart by `Split`'s discriminator). The list of types may grow: clients should accept a document_type they do not know yet.",
      oneOf: DOCUMENT_TYPE_IDS.map((id) => ({ $ref: `#/components/schemas/${splitSchemaName(id)}` })),
    },
    // OpenAPI's discriminator names a property of the object itself, and the type sits in `split`
    // (the spec's shape): so `Split` carries the discriminator, and each result refers to its own split.
    Split: {
      description: "Which document was found and on which pages.",
      oneOf: DOCUMENT_TYPE_IDS.map((id) => ({ $ref: `#/components/schemas/${splitPartName(id)}` })),
      discriminator: {
        propertyName: "document_type",
        mapping: Object.fromEntries(DOCUMENT_TYPE_IDS.map((id) => [DOCUMENT_TYPES[id].label, `#/components/schemas/${splitPartName(id)}`])),
      },
    },
    ...splitParts,
    ...splits,
    Evidence: {
      type: "object",
      required: ["page", "bbox", "text", "confidence"],
      properties: {
        page: { type: "integer", minimum: 1 },
        bbox: {
          type: "array",
          items: { type: "number", minimum: 0, maximum: 1 },
          minItems: 4,
          maxItems: 4,
          description: "[x0, y0, x1, y1] as fractions of the page's width and height, origin top-left.",
        },
        text: { type: "string", description: "The text the value was read from." },
        confidence: { type: "number", minimum: 0, maximum: 1 },
        taught: {
          type: "object",
          description:
            "Present when the value was read where a checker of your organization taught this layout (by correcting the value on an earlier document of the same issuer and layout in the web app), not by the engine's own rules.",
          required: ["layout", "source"],
          properties: {
            layout: { type: "string", description: "The learned layout's id (an admin can forget it in the web app)." },
            source: { type: "string", description: "Where it was taught, in words: the file, its pages and the set." },
          },
        },
      },
    },
    ...examinationSchemas(),
    Error: {
      type: "object",
      required: ["detail"],
      properties: { detail: { type: "string", description: "What was wrong, and how to fix it." } },
      additionalProperties: false,
    },
  };
}
