import "server-only";
import type { Db } from "@/db/client";
import { ApiError } from "@/lib/errors";
import { getSet } from "../get-set";
import { renderReportPdf } from "./pdf";
import { buildReport } from "./report";
import { matrixTable, renderWorkbook, toCsv } from "./tables";

export const EXPORT_FORMATS = ["pdf", "xlsx", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const CONTENT_TYPES: Record<ExportFormat, string> = {
  pdf: "application/pdf",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv; charset=utf-8",
};

export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === "string" && (EXPORT_FORMATS as readonly string[]).includes(value);
}

/** "LC 4471 / rice" → "lc-4471-rice": a file name safe on every system. */
function slugOf(name: string): string {
  return name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "set";
}

/**
 * The set's discrepancy report (PDF) or comparison matrix (XLSX with the
 * findings, or CSV), from the values and decisions in force. A set still
 * being read, or with nothing examined, has nothing to export (409).
 */
export async function exportSet(
  db: Db,
  params: { organizationId: string; setId: string; by: string; format: ExportFormat; now?: Date },
): Promise<{ bytes: Uint8Array; contentType: string; fileName: string }> {
  const view = await getSet(db, params);
  if (!view.settled) throw new ApiError("conflict", "The set's files are still being read; export once every file is analysed.");
  if (!view.examination) {
    throw new ApiError("conflict", view.examinationError ?? "The set has no analysed document to report on; add the presentation's files first.");
  }
  const report = buildReport(view, params.by, params.now);
  const base = `${slugOf(view.set.name)}-${params.format === "pdf" ? "discrepancy-report" : "comparison"}`;
  const bytes =
    params.format === "pdf"
      ? await renderReportPdf(report)
      : params.format === "xlsx"
        ? await renderWorkbook(view.examination, report)
        : new TextEncoder().encode(toCsv(matrixTable(view.examination)));
  return { bytes, contentType: CONTENT_TYPES[params.format], fileName: `${base}.${params.format}` };
}
