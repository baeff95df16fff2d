/** Display helpers shared by the set components (the value helpers live in lib/sets/format, shared with the exports). */
import type { FileProgressView } from "@/lib/sets/types";

export { formatPages, formatValue, labelOfKey } from "@/lib/sets/format";

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "2 of 12 pages read · about 4 min left"; no estimate until a page has been read at the reader's pace. */
export function describeProgress({ pagesDone, pagesTotal, minutesLeft }: FileProgressView): string {
  const pages = `${pagesDone} of ${pagesTotal} page${pagesTotal === 1 ? "" : "s"} read`;
  if (minutesLeft === null || pagesDone >= pagesTotal) return pages;
  return `${pages} · ${minutesLeft === 0 ? "less than a minute left" : `about ${minutesLeft} min left`}`;
}
