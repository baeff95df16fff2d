/** How values, pages and field names read, on the set page and in the exported report alike. */
const NUMBER = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 3 });

/** "p. 3" or "pp. 3–5" (or "pp. 2, 4" when the pages are not consecutive). */
export function formatPages(pages: number[]): string {
  if (pages.length === 0) return "";
  if (pages.length === 1) return `p. ${pages[0]}`;
  const consecutive = pages.every((p, i) => i === 0 || p === pages[i - 1]! + 1);
  return consecutive ? `pp. ${pages[0]}–${pages.at(-1)}` : `pp. ${pages.join(", ")}`;
}

/** Abbreviations a trade document writes in capitals or with a slash. */
const ABBREVIATIONS: Record<string, string> = { bl: "B/L", lc: "L/C", hs: "HS", kg: "(kg)", cbm: "(m³)", id: "ID" };

/** `gross_weight_kg` → "Gross weight (kg)", `bl_number` → "B/L number". */
export function labelOfKey(key: string): string {
  const words = key.split("_").map((w) => ABBREVIATIONS[w] ?? w).join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Extracted values as text: numbers grouped, lists joined, objects as key: value. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "number") return NUMBER.format(value);
  if (Array.isArray(value)) return value.map(formatValue).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${labelOfKey(k)}: ${formatValue(v)}`)
      .join("; ");
  }
  return String(value);
}
