import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { init } from "@embedpdf/pdfium";
import { AnalysisError } from "../errors";

/**
 * PDFium (Google's PDF library, BSD-3-Clause) compiled to WebAssembly by
 * @embedpdf/pdfium (MIT): the engine's PDF text layer. The 4.6 MB module is
 * compiled once per process (a reader does it while it starts, see
 * preloadPdfium) and instantiated from that compilation; an instance's linear
 * memory is capped (MAX_MEMORY_BYTES) so that a hostile file cannot grow it
 * past what a reader may hold. A file that traps the instance (PDFium aborts
 * on an allocation it cannot make, or on a broken invariant) or leaves its
 * memory large costs that instance: the next file gets a fresh one, so no
 * state of a bad file outlives it and the memory it took is given back.
 */

/** Linear memory one instance may grow to. A 500-page, 50 MB PDF needs under 200 MB; twice that is an attack or a bug. */
const MAX_MEMORY_BYTES = 512 * 2 ** 20;
/** An instance whose memory grew past this while reading a file is replaced after it, so idle readers stay small. */
const RETAINED_MEMORY_BYTES = 96 * 2 ** 20;
/** The WebAssembly file, in the package's dist/ beside its entry. */
const WASM_FILE = "pdfium.wasm";
/** Bytes of scratch memory for the out-parameters of PDFium's calls (rectangles, matrices, points). */
const SCRATCH_BYTES = 64;

/** The raw exports of PDFium that the engine calls (numbers in and out; pointers are offsets into memory). */
export interface PdfiumExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
  FPDF_LoadMemDocument(data: number, size: number, password: number): number;
  FPDF_GetLastError(): number;
  FPDF_GetPageCount(doc: number): number;
  FPDF_GetPageSizeByIndexF(doc: number, index: number, size: number): number;
  FPDF_CloseDocument(doc: number): void;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_GetPageBoundingBox(page: number, rect: number): number;
  FPDFPage_GetRotation(page: number): number;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  FPDFPageObj_GetMatrix(object: number, matrix: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, index: number): number;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(textPage: number): void;
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_IsHyphen(textPage: number, index: number): number;
  FPDFText_GetTextObject(textPage: number, index: number): number;
  FPDFText_GetFontSize(textPage: number, index: number): number;
  FPDFText_GetMatrix(textPage: number, index: number, matrix: number): number;
  FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number;
  FPDFText_GetLooseCharBox(textPage: number, index: number, rect: number): number;
}

/** One instance: its exports, and a scratch area for out-parameters read through typed views. */
export class Pdfium {
  readonly scratch: number;
  private buffer: ArrayBuffer | undefined;
  private f32 = new Float32Array(0);
  private f64 = new Float64Array(0);

  constructor(
    readonly api: PdfiumExports,
    private readonly state: InstanceState,
  ) {
    this.scratch = api.malloc(SCRATCH_BYTES);
  }

  /** The float32 at a byte offset (views are remade when the memory has grown, which detaches the old buffer). */
  float32(pointer: number): number {
    this.refreshViews();
    return this.f32[pointer >> 2] ?? 0;
  }

  float64(pointer: number): number {
    this.refreshViews();
    return this.f64[pointer >> 3] ?? 0;
  }

  /** Copies bytes into a fresh allocation; the caller frees it. 0 when the capped memory cannot hold them. */
  copyIn(bytes: Uint8Array): number {
    const pointer = this.api.malloc(bytes.length);
    if (pointer) new Uint8Array(this.api.memory.buffer, pointer, bytes.length).set(bytes);
    return pointer;
  }

  /** Whether the last growth asked for was refused by the memory cap. */
  get memoryRefused(): boolean {
    return this.state.refused;
  }

  get memoryBytes(): number {
    return this.api.memory.buffer.byteLength;
  }

  private refreshViews(): void {
    const buffer = this.api.memory.buffer;
    if (buffer === this.buffer) return;
    this.buffer = buffer;
    this.f32 = new Float32Array(buffer);
    this.f64 = new Float64Array(buffer);
  }
}

interface InstanceState {
  refused: boolean;
}

type Imports = Record<string, Record<string, unknown>>;

let compiled: Promise<WebAssembly.Module> | undefined;
let current: Promise<Pdfium> | undefined;

function compileOnce(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    // Beside the package's entry, wherever npm put it. (Not resolved as "@embedpdf/pdfium/pdfium.wasm":
    // Next's bundler, which traces the engine into the server, would then try to load the file as a
    // WebAssembly ES module and fail the build.)
    const entry = createRequire(import.meta.url).resolve("@embedpdf/pdfium");
    return WebAssembly.compile(await readFile(join(dirname(entry), WASM_FILE)));
  })();
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}

async function instantiate(): Promise<Pdfium> {
  const module = await compileOnce();
  const state: InstanceState = { refused: false };
  const wrapped = await init({
    // PDFium's own complaints (and the runtime's "Aborted(...)") are about the file: the caller reports it.
    print: () => undefined,
    printErr: () => undefined,
    instantiateWasm(imports: Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
      // The heap grows only through this import: past the cap it says no, and PDFium's allocation fails.
      const env = imports.env!;
      const grow = env.emscripten_resize_heap as (size: number) => boolean;
      env.emscripten_resize_heap = (size: number) => {
        if (size >>> 0 > MAX_MEMORY_BYTES) {
          state.refused = true;
          return false;
        }
        return grow(size);
      };
      WebAssembly.instantiate(module, imports as WebAssembly.Imports).then((instance) => receive(instance, module));
      return {};
    },
  } as Parameters<typeof init>[0]);
  wrapped.PDFiumExt_Init();
  return new Pdfium(wrapped.pdfium.wasmExports as unknown as PdfiumExports, state);
}

/** The process's PDFium instance, made on first use. */
function instance(): Promise<Pdfium> {
  current ??= instantiate();
  current.catch(() => {
    current = undefined;
  });
  return current;
}

/** Compiles and instantiates PDFium ahead of the first file (a reader calls it while it starts). */
export async function preloadPdfium(): Promise<void> {
  await instance();
}

/**
 * Runs one file's work on the process's instance. The work is synchronous, so
 * files never interleave on it. An instance that threw (a trap leaves it in no
 * state to reuse) or grew large is dropped; an error that is not already an
 * AnalysisError becomes one: limit_exceeded when the memory cap refused PDFium,
 * unreadable otherwise.
 */
export async function withPdfium<T>(work: (pdfium: Pdfium) => T): Promise<T> {
  const pdfium = await instance();
  try {
    const result = work(pdfium);
    if (pdfium.memoryBytes > RETAINED_MEMORY_BYTES) current = undefined;
    return result;
  } catch (error) {
    if (error instanceof AnalysisError) {
      if (pdfium.memoryBytes > RETAINED_MEMORY_BYTES) current = undefined;
      throw error;
    }
    current = undefined;
    if (pdfium.memoryRefused) throw new AnalysisError("limit_exceeded", "Reading the file needed more memory than allowed; it was stopped.");
    throw new AnalysisError("unreadable", "The file is not a readable PDF: it is damaged or truncated.");
  }
}
