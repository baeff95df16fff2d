/** Downloads of the set as the checker left it: the discrepancy report, and the comparison as a workbook or CSV. */
export function ExportLinks({ setId }: { setId: string }) {
  const url = (format: string) => `/api/sets/${encodeURIComponent(setId)}/export?format=${format}`;
  return (
    <nav className="export-links" aria-label="Export">
      <span className="muted">Export</span>
      <a className="btn btn-secondary btn-sm" href={url("pdf")} download>Discrepancy report (PDF)</a>
      <a className="btn btn-ghost btn-sm" href={url("xlsx")} download>Comparison (XLSX)</a>
      <a className="btn btn-ghost btn-sm" href={url("csv")} download>Comparison (CSV)</a>
    </nav>
  );
}
