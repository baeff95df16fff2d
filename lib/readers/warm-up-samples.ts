import path from "node:path";

/** Where the warm-up documents are committed (scripts/warm-up-samples.ts writes them), from the project root. */
export const WARM_UP_DIR = path.join(process.cwd(), "lib/readers/warm-up");

/** Commercial invoices of the fixture generator: a typed two-page one and a letterhead with a table of goods. */
export const WARM_UP_SAMPLES = [
  { file: "invoice-typed-two-pages.pdf", seed: 3 },
  { file: "invoice-letterhead-table.pdf", seed: 7 },
] as const;
