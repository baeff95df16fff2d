/**
 * npm run examine -- [--presentation-date YYYY-MM-DD] FILE...
 * Analyses every file, examines them as one presentation and prints exactly
 * what POST /v1/documents/compare returns. The presentation date defaults to today.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { AnalysisError, ExaminationError, examineFiles, isIsoDate, type PresentedFile } from "@/lib/analysis";

const USAGE = "usage: npm run examine -- [--presentation-date YYYY-MM-DD] FILE...";

interface CliArgs {
  presentationDate: string;
  files: string[];
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function parseArgs(argv: string[]): CliArgs | string {
  const args: CliArgs = { presentationDate: today(), files: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--presentation-date") {
      const date = argv[++i];
      if (!date || !isIsoDate(date)) return "--presentation-date needs a date written YYYY-MM-DD";
      args.presentationDate = date;
    } else if (arg === "--help" || arg === "-h") return USAGE;
    else if (arg.startsWith("--")) return `unknown option ${arg}`;
    else args.files.push(arg);
  }
  return args.files.length ? args : "no input file";
}

function reasonOf(error: unknown): string {
  if (error instanceof AnalysisError) return `${error.code}: ${error.message}`;
  if (error instanceof ExaminationError) return `${error.code}: ${error.message}`;
  if (error instanceof Error && "code" in error && typeof error.code === "string") return `${error.code}: cannot read the file`;
  return "unexpected error while examining";
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === "string") {
    process.stderr.write(`${args}\n${USAGE}\n`);
    return args === USAGE ? 0 : 2;
  }
  const files: PresentedFile[] = [];
  for (const path of args.files) {
    try {
      files.push({ name: basename(path), bytes: new Uint8Array(await readFile(path)) });
    } catch (error) {
      process.stderr.write(`${path}: ${reasonOf(error)}\n`);
      return 1;
    }
  }
  try {
    const result = await examineFiles(files, args.presentationDate);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${reasonOf(error)}\n`);
    return 1;
  }
}

process.exitCode = await main();
