/**
 * Whether a row's values differ when no rule reported on them: shown to the
 * user as "differs" (e.g. a B/L shipper other than the beneficiary, allowed by
 * art. 14(k)), never as a discrepancy.
 */
import { comparePorts, isPortRange } from "./ports";
import { sameParty } from "./names";
import { splitVessel } from "./rules/consistency-transport";
import { referenceKey, similarity } from "./similarity";
import type { Comparison } from "./matrix-rows";
import type { MatrixCell, Tolerances } from "./types";

const VESSEL_SIMILARITY = 0.85;

function pairDiffers(kind: Comparison, a: MatrixCell["value"], b: MatrixCell["value"], t: Tolerances): boolean {
  if (a === null || b === null) return false;
  switch (kind) {
    case "party":
      return !sameParty(String(a), String(b), t.nameSimilarity);
    case "number": {
      const [x, y] = [Number.parseFloat(String(a)), Number.parseFloat(String(b))];
      return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) > Math.max(t.weightKg, (Math.max(x, y) * t.weightPct) / 100);
    }
    case "ref":
      return referenceKey(String(a)) !== referenceKey(String(b));
    case "port":
      return comparePorts(String(a), String(b)) === "different";
    case "vessel":
      return similarity(splitVessel(String(a)).name, splitVessel(String(b)).name) < VESSEL_SIMILARITY;
    case "set": {
      const [x, y] = [a, b].map((v) => new Set((Array.isArray(v) ? v : [String(v)]).map(referenceKey)));
      return x!.size !== y!.size || [...x!].some((v) => !y!.has(v));
    }
    default:
      return false;
  }
}

/** True when some present value differs from the first present one; a credit's port range is not a port to compare. */
export function valuesDiffer(kind: Comparison, cells: MatrixCell[], t: Tolerances): boolean {
  const present = cells
    .filter((c) => c.state === "present")
    .map((c) => c.value)
    .filter((v) => kind !== "port" || !isPortRange(String(v)));
  const [first, ...rest] = present;
  return first !== undefined && rest.some((v) => pairDiffers(kind, first, v, t));
}
