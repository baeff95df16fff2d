/**
 * Table header rows: which column titles a row names (goods, quantities,
 * weights, packages, containers, seals, quality parameters), each with the
 * x-span of its title words and the whole title with its note ("Quantity (MT)").
 * Read once per row and document.
 */
import type { Doc } from "./document";
import { allMatches } from "../normalize/matches";

export type ColumnKind =
  | "description" | "quantity" | "unit" | "unit_price" | "amount" | "packages" | "gross" | "net" | "measurement"
  | "marks" | "hs" | "invoice" | "parameter" | "result" | "specification" | "method" | "currency" | "item" | "seal" | "container" | "other" | "tare";

/** Kinds of package a column may count ("No. of Bags", "Cartons", "Drums"). */
const PACKAGE_WORDS = "CARTONS|CTNS|BAGS|SACKS|BALES|DRUMS|CASES|PALLETS|BOXES|CRATES|ROLLS|COILS|BUNDLES";

const HEADERS: Array<[ColumnKind, string]> = [
  ["description", "(?:NUMBER\\s*AND\\s*KIND\\s*OF\\s*)?PACKAGES?[;,]?\\s*(?:AND\\s*)?DESCRIPTION(?:\\s*OF\\s*(?:THE\\s*)?GOODS)?|DESCRIPTION(?:\\s*OF\\s*(?:PACKAGES\\s*AND\\s*)?GOODS)?|GOODS|COMMODITY|PARTICULARS|PRODUCT"],
  ["unit_price", "UNIT\\s*PRICE|U\\s*[./]?\\s*PRICE|PRICE\\s*(?:PER\\s*UNIT|/\\s*UNIT)?|RATE"],
  // A column titled just "Total" holds the line amounts; "TOTAL GROSS WEIGHT" names another column.
  ["amount", "AMOUNT|TOTAL\\s*(?:VALUE|AMOUNT|PRICE)|EXTENDED|LINE\\s*TOTAL|VALUE|TOTAL(?!\\s*[A-Z])"],
  ["currency", "CURRENCY|CURR?\\.?|CCY"],
  ["quantity", "QUANTITY|QTY|QUANT\\."],
  ["unit", "UNIT(?:S)?(?!\\s*PRICE)|UOM|U/M"],
  ["gross", "GROSS\\s*(?:WEIGHT|WT\\.?|WGT)?|G\\.\\s*W\\.?|G/W"],
  ["net", "NET\\s*(?:WEIGHT|WT\\.?|WGT)?|N\\.\\s*W\\.?|N/W"],
  ["measurement", "MEASUREMENT|MEAS\\.?|VOLUME|CBM|M3"],
  // "Packing List", "Packing Specification" name documents, not a column.
  ["packages", `NO\\.?\\s*OF\\s*(?:PACKAGES|PKGS|${PACKAGE_WORDS})|PACKAGES|PKGS|${PACKAGE_WORDS}|PACKING(?!\\s*(?:LIST|SPEC))`],
  ["marks", "MARKS(?:\\s*(?:&|AND)\\s*(?:NOS?\\.?|NUMBERS))?|SHIPPING\\s*MARKS"],
  // Before "container": "Container Tare kg" titles the tare, not the container numbers.
  ["tare", "(?:CONTAINER\\s*)?TARE(?:\\s*(?:WEIGHT|WT\\.?|MASS))?"],
  ["container", "CONTAINERS?(?:\\s*(?:NOS?\\.?|NUMBERS?))?|CNTRS?\\.?(?:\\s*NOS?\\.?)?"],
  // A container row carries its seal in a column of its own ("Container No. | Seal No. | Packages | ...").
  ["seal", "SEALS?(?:\\s*(?:NOS?\\.?|NUMBERS?|#))?"],
  ["hs", "H\\.?\\s?S\\.?(?:\\s*(?:CODE|NO\\.?))?"],
  ["invoice", "INVOICE(?:\\s*(?:NO\\.?|NUMBER))?|INVOIC"],
  // A laboratory's "Analysis" column names what was analysed ("Analysis | Method | Found | Limit"); "Analysis Results" are results.
  ["parameter", "PARAMETERS?|CHARACTERISTICS?|PROPERT(?:Y|IES)|TEST\\s*ITEMS?|ANALYSIS\\s*ITEMS?|ANALYSIS(?!\\s*RESULTS?)|ANALYTES?|ITEMS?\\s*TESTED|TESTS?|DETERMINATION"],
  ["result", "RESULTS?|ACTUAL(?:\\s*VALUES?)?|FOUND|TEST\\s*RESULTS?|ANALYSIS\\s*RESULTS?|OBSERVED(?:\\s*VALUES?)?|OBTAINED|DETERMINED|ANALY[SZ]ED"],
  ["specification", "SPECIFICATIONS?|SPEC\\.?|STANDARDS?|LIMITS?|GUARANTEED|REQUIREMENTS?|MAX\\.?\\s*/\\s*MIN\\.?|MIN\\.?\\s*/\\s*MAX\\.?|TYPICAL(?:\\s*VALUES?)?|NORMS?|TOLERANCES?|CONTRACT(?:UAL)?\\s*(?:SPEC(?:IFICATION)?S?|VALUES?)"],
  ["method", "METHODS?|TEST\\s*METHOD"],
  // Last, so that "ITEMS TESTED" stays a parameter: the running number of a line item, kept out of its description.
  ["item", "ITEM\\s*(?:NO\\.?|#)?|S\\.?\\s*NO\\.?|SR\\.?\\s*NO\\.?|SL\\.?\\s*NO\\.?|LINE\\s*NO\\.?"],
];
const HEADER_PATTERN = new RegExp(
  `(?<![A-Z])(?:${HEADERS.map(([kind, source]) => `(?<${kind}>${source})`).join("|")})(?![A-Z])`,
  "g",
);
const REFERENCE_TITLE = /\b(?:NO|NUMBER|REF|REFERENCE|DATE)\.?:?$/i;
export const NUMERIC_KINDS: ReadonlySet<ColumnKind> = new Set(["quantity", "amount", "unit_price", "gross", "net", "measurement", "packages", "result", "tare"]);
/** Words a header line may hold, or per column title when it names several. */
const MAX_HEADER_WORDS = 10;
const WORDS_PER_TITLE = 4;
const LABEL_WITH_VALUE = /^[^:]{2,40}:\s*\S/;
/** "Quantity of Packages:" with its value beside it: a label ends in a colon, a column title does not. */
const LABEL_ALONE = /:\s*$/;

export interface Column {
  kind: ColumnKind;
  x0: number;
  x1: number;
  header: string;
}

/** Header columns per row, read once per document: each table asked for scans the rows from the top. */
const HEADER_COLUMNS = new WeakMap<Doc, Array<Column[] | undefined>>();

export function headerColumns(doc: Doc, row: number): Column[] {
  const rows = HEADER_COLUMNS.get(doc) ?? [];
  HEADER_COLUMNS.set(doc, rows);
  return (rows[row] ??= readHeaderColumns(doc, row));
}

function readHeaderColumns(doc: Doc, row: number): Column[] {
  const columns: Column[] = [];
  for (const id of doc.rows[row]!) {
    const line = doc.lines[id]!;
    // A "Label: value" line ("Packing List No.: PL-7") or a "Label:" names a field, not a column.
    if (LABEL_WITH_VALUE.test(line.text) || LABEL_ALONE.test(line.text)) continue;
    const matches = allMatches(HEADER_PATTERN, line.upper);
    // Column titles are short; prose mentioning "packages" or "goods" is not a header.
    if (line.words.length > Math.max(MAX_HEADER_WORDS, WORDS_PER_TITLE * matches.length)) continue;
    matches.forEach((m, at) => {
      const kind = Object.entries(m.groups!).find(([, v]) => v !== undefined)![0] as ColumnKind;
      // A title's cell runs to the next title: "Specification (Max/Min/Typical)" spans its note too.
      const cellEnd = matches[at + 1]?.index ?? line.text.length;
      // "Packing Specification No.": a title naming a reference is a field's box, never a column of measures.
      if (NUMERIC_KINDS.has(kind) && REFERENCE_TITLE.test(line.text.slice(m.index, cellEnd).trim())) return;
      // Specifications may take two columns ("Max/Min" and "Specification"); any other title is read once.
      if (kind !== "specification" && columns.some((c) => c.kind === kind)) return;
      const words = line.words.filter((_, i) => line.starts[i]! >= m.index && line.starts[i]! < cellEnd && (line.starts[i]! < m.index + m[0].length || !/\w/.test(line.text[line.starts[i]!]!) || /^\(/.test(line.words[i]!.text)));
      if (words.length === 0) return;
      columns.push({
        kind,
        x0: Math.min(...words.map((w) => w.x)),
        x1: Math.max(...words.map((w) => w.x + w.width)),
        // The whole title with its note: "Quantity (MT)" and "Gross Weight (kg)" state the unit of every cell below.
        header: words.map((w) => w.text).join(" "),
      });
    });
  }
  // A title the vocabulary does not know ("Lot", "Grade") still heads a column of its own: its cells never join a neighbour's.
  if (columns.length >= 2) {
    for (const id of doc.rows[row]!) {
      const line = doc.lines[id]!;
      const known = columns.some((c) => c.x1 > line.x0 && c.x0 < line.x1);
      if (!known && line.words.length <= WORDS_PER_TITLE && !/\d/.test(line.text)) columns.push({ kind: "other", x0: line.x0, x1: line.x1, header: line.text });
    }
  }
  return columns.sort((a, b) => a.x0 - b.x0);
}
