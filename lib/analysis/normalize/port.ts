/** Ports and places as printed: whitespace collapsed, stray punctuation trimmed, case kept. */
import { cleanValue } from "./text";

/** Leading box numbers or labels a port cell may carry ("5. ", "PORT: "). */
const LEADING_NOISE = /^(?:\d{1,2}\.\s+|[:#]\s*)/;

export function normalizePort(text: string): string | undefined {
  const value = cleanValue(cleanValue(text).replace(LEADING_NOISE, ""));
  return /[A-Za-z]/.test(value) ? value : undefined;
}
