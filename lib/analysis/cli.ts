/**
 * npm run analyze -- [--evidence] [--out DIR] FILE...
 * Prints exactly what the API returns for each file. The CLI reads the bytes;
 * the engine never sees a path.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { analyzeDocument, AnalysisError } from "./index";

const USAGE = "usage: npm run analyze -- [--evidence] [--out DIR] FILE...";

interface CliArgs {
  evidence: boolean;
  out?: string;
  files: string[];
}

function parseArgs(argv: string[]): CliArgs | string {
  const args: CliArgs = { evidence: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--evidence") args.evidence = true;
    else if (arg === "--out") {
      const dir = argv[++i];
      if (!dir) return "--out needs a directory";
      args.out = dir;
    } else if (arg === "--help" || arg === "-h") return USAGE;
    else if (arg.startsWith("--")) return `unknown option ${arg}`;
    else args.files.push(arg);
  }
  if (args.files.length === 0) return "no input file";
  if (args.files.length > 1 && !args.out) return "several files need --out DIR";
  return args;
}

function reasonOf(error: unknown): string {
  if (error instanceof AnalysisError) return `${error.code}: ${error.message}`;
  if (error instanceof Error && "code" in error && typeof error.code === "string") return `${error.code}: cannot read the file`;
  return "unexpected error while analysing";
}

async function analyzeFile(file: string, args: CliArgs): Promise<boolean> {
  try {
    const bytes = new Uint8Array(await readFile(file));
    const result = await analyzeDocument(bytes, { evidence: args.evidence, fileName: basename(file) });
    const json = `${JSON.stringify(result, null, 2)}\n`;
    if (args.out) await writeFile(join(args.out, `${basename(file)}.json`), json);
    else process.stdout.write(json);
    return true;
  } catch (error) {
    process.stderr.write(`${file}: ${reasonOf(error)}\n`);
    return false;
  }
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === "string") {
    process.stderr.write(`${args}\n${USAGE}\n`);
    return args === USAGE ? 0 : 2;
  }
  if (args.out) await mkdir(args.out, { recursive: true });
  let ok = true;
  for (const file of args.files) ok = (await analyzeFile(file, args)) && ok;
  return ok ? 0 : 1;
}

process.exitCode = await main();
