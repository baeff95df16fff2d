/** How the comparison table reads matrix cell values: as text, as numbers, and which value the others are held against. */
import type { MatrixCell } from "@/lib/analysis";

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
function normalized(value: MatrixCell["value"]): string {
  return cellText(value).toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}

export type SameValue = (a: MatrixCell["value"], b: MatrixCell["value"]) => boolean;

/** Two values are the same when their text matches, or, on a figure row, when they are within its tolerance. */
export function sameValue(tolerance: { absolute?: number; percent?: number } | undefined): SameValue {
  return (a, b) => {
    if (normalized(a) === normalized(b)) return true;
    const [x, y] = [cellNumber(a), cellNumber(b)];
    if (!tolerance || x === undefined || y === undefined) return false;
    return Math.abs(x - y) <= Math.max(tolerance.absolute ?? 0, (Math.max(Math.abs(x), Math.abs(y)) * (tolerance.percent ?? 0)) / 100);
  };
}

/**
 * The value most documents show (the first one on a tie): in a mismatched row
 * the others are shown against it, so the odd one out stands out.
 */
export function referenceIndex(cells: MatrixCell[], same: SameValue): number | undefined {
  let best: { index: number; agreeing: number } | undefined;
  cells.forEach((cell, i) => {
    if (cell.state !== "present") return;
    const agreeing = cells.filter((other) => other.state === "present" && same(cell.value, other.value)).length;
    if (!best || agreeing > best.agreeing) best = { index: i, agreeing };
  });
  return best?.index;
}
