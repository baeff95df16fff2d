import "server-only";
import ExcelJS from "exceljs";
import type { MatrixCell } from "@/lib/analysis";
import { formatPages } from "../format";
import type { SetExamination } from "../types";
import type { Report } from "./report";

/**
 * The comparison matrix as rows of cells, one column per document: what the
 * XLSX's first sheet and the CSV hold. Figures stay numbers; a cell the
 * document should carry and does not says MISSING; rows no document carries
 * are left out, as on the page.
 */
export type TableCell = string | number;

const STATUS_TEXT: Record<string, string> = { agree: "Agrees", mismatch: "Mismatch", missing: "Missing", differs: "Differs", not_compared: "" };

function cellValue(cell: MatrixCell): TableCell {
  if (cell.state === "missing") return "MISSING";
  if (cell.state === "absent" || cell.value === null) return "";
  return Array.isArray(cell.value) ? cell.value.join(", ") : cell.value;
}

export function matrixTable(examination: SetExamination): TableCell[][] {
  const { columns, rows } = examination.matrix;
  const header = ["Fact", "Status", "Reason", ...columns.map((c) => `${c.type} (${formatPages(c.pages)})`)];
  const body = rows
    .filter((r) => r.cells.some((c) => c.state !== "absent"))
    .map((r) => [r.label, STATUS_TEXT[r.status] ?? r.status, r.status === "agree" ? "" : (r.reason ?? ""), ...r.cells.map(cellValue)]);
  return [header, ...body];
}

/**
 * A text a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is
 * written with a leading apostrophe: document text is not ours to execute
 * (OWASP "CSV injection").
 */
function inert(value: TableCell): TableCell {
  return typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled; CRLF between records. */
export function toCsv(table: TableCell[][]): string {
  const field = (value: TableCell) => {
    const text = String(inert(value));
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `${table.map((row) => row.map(field).join(",")).join("\r\n")}\r\n`;
}

/** The workbook: the comparison matrix, then the findings with their decisions. */
export async function renderWorkbook(examination: SetExamination, report: Report): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Shipshape";
  const matrix = workbook.addWorksheet("Comparison", { views: [{ state: "frozen", xSplit: 1, ySplit: 1 }] });
  for (const row of matrixTable(examination)) matrix.addRow(row.map(inert));
  matrix.getRow(1).font = { bold: true };
  matrix.columns.forEach((column, i) => {
    column.width = i === 2 ? 48 : 24;
  });

  const findings = workbook.addWorksheet("Findings", { views: [{ state: "frozen", ySplit: 1 }] });
  findings.addRow(["Severity", "Reference", "Finding", "Documents", "Expected", "Found", "Decision", "Note", "Decided by", "Decided at"]);
  for (const f of report.findings) {
    findings.addRow([f.severity, f.reference, f.message, f.documents, f.expected, f.found, f.decision, f.note, f.decidedBy, f.decidedAt].map(inert));
  }
  findings.getRow(1).font = { bold: true };
  findings.columns.forEach((column, i) => {
    column.width = i === 2 ? 60 : 20;
  });
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
