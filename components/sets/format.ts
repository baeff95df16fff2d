/** Display helpers shared by the set components (the value helpers live in lib/sets/format, shared with the exports). */
export { formatPages, formatValue, labelOfKey } from "@/lib/sets/format";

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
