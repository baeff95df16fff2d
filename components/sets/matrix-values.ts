/** How the comparison table reads matrix cell values: as text, as numbers, and which value the others are held against. */
import type { MatrixCell } from "@/lib/analysis/examine/types";

export function cellText(value: MatrixCell["value"]): string {
  if (value === null) return "";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "number") return new Intl.NumberFormat("en-GB", { maximumFractionDigits: 3 }).format(value);
  return value;
}

export function cellNumber(value: MatrixCell["value"]): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return undefined;
  const parsed = Number.parseFloat(value.replace(/,/g, ""));
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** Case, spacing and punctuation aside, the value as compared. */
export function normalized(value: MatrixCell["value"]): string {
  return cellText(value).toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}

/**
 * The value most documents show (the first one on a tie): in a mismatched row
 * the others are shown against it, so the odd one out stands out.
 */
export function referenceIndex(cells: MatrixCell[]): number | undefined {
  const counts = new Map<string, { count: number; first: number }>();
  cells.forEach((cell, i) => {
    if (cell.state !== "present") return;
    const key = normalized(cell.value);
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { count: 1, first: i });
  });
  let best: { count: number; first: number } | undefined;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best?.first;
}
