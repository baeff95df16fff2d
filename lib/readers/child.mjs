// Entry of an isolation child process. Plain JavaScript on purpose: the parent
// may be Next.js's bundled server, which cannot hand a child a TypeScript file,
// so this file registers tsx's loader and then imports job modules (.ts) from
// the project's sources by absolute path. One job at a time; the parent kills
// this process (and its process group: tesseract, pdftoppm) at the deadline.
import { mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";

// glibc read its malloc settings (reader-environment.ts) when this process started; the OCR and
// renderer processes this reader starts are short-lived and keep glibc's defaults.
for (const name of Object.keys(process.env)) if (name.startsWith("MALLOC_")) delete process.env[name];

// Large packages the engine imports are loaded by Node itself before tsx's loader is registered:
// through tsx, pdfjs (3 MB of JavaScript, the text layer until PDFium replaced it) cost a reader about
// 190 MB more resident memory and a slower start. The engine's later imports find them in the module
// cache: PDFium's JavaScript glue (its WebAssembly is compiled once when the reader module loads, see
// read-in-reader.ts) and pdfjs's standalone image decoders (JPEG, for OCR's turned pages).
await import("@embedpdf/pdfium");
await import("pdfjs-dist/image_decoders/pdf.image_decoders.mjs");
// @napi-rs/canvas (turning and scaling scanned pages) is a native module the engine loads on first
// use; loaded now, a reader's first scanned document does not pay for loading it.
await import("@napi-rs/canvas");

// tsx reads tsconfig.json (and its "@/" paths) from the working directory: the parent starts us in the project root.
const { register } = await import("tsx/esm/api");
register();

/** Only what the parent needs to rebuild a typed error; never a stack. */
function describeError(error) {
  if (error && error.name === "AnalysisError") return { name: "AnalysisError", code: error.code, message: error.message, page: error.page };
  return { name: "Error", message: error instanceof Error ? error.message : String(error) };
}

// The parent went away (crashed or was killed): nothing is left to answer.
process.on("disconnect", () => process.exit(0));

/**
 * The job modules loaded so far, by path. A dynamic import() of a module already loaded still asks
 * tsx's loader hooks, on their own thread, to resolve it: about a millisecond of a one-page job's
 * processor time. A job names its module by path, so the second job finds it here.
 */
const modules = new Map();
function moduleAt(path) {
  let loading = modules.get(path);
  if (!loading) {
    loading = import(pathToFileURL(path).href);
    modules.set(path, loading);
    // A module that failed to load is asked for again by the next job (and fails it with the same error).
    loading.catch(() => modules.delete(path));
  }
  return loading;
}

// Modules named on the command line (the ingest engine) are loaded before the child says it is
// ready, so the parent's deadline measures a job's own work, never this start-up.
for (const path of process.argv.slice(2)) await moduleAt(path);

process.on("message", async (job) => {
  try {
    // Everything the job writes (rendered pages, OCR images) goes to its own directory, which the parent removes.
    mkdirSync(job.tempDir, { recursive: true, mode: 0o700 });
    process.env.TMPDIR = job.tempDir;
    const module = await moduleAt(job.module);
    // A job that reports progress gets a last argument that sends each report to the parent as it comes.
    const report = (progress) => process.send({ id: job.id, progress });
    const value = await module[job.exportName](...job.args, ...(job.reportsProgress ? [report] : []));
    process.send({ id: job.id, ok: true, value });
  } catch (error) {
    // A typed refusal is the file's; anything else is worth a line in the server's log (never in the response),
    // saying the error's name, code and first line only: a parser's error may quote the document it read.
    if (error?.name !== "AnalysisError") {
      const message = (error instanceof Error ? error.message : String(error)).split("\n", 1)[0].slice(0, 200);
      console.error(`isolation job ${job.exportName} failed: ${error?.name ?? "Error"}${error?.code ? ` [${error.code}]` : ""}: ${message}`);
    }
    process.send({ id: job.id, ok: false, error: describeError(error) });
  }
});

process.send({ ready: true });
