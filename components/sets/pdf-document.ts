/**
 * pdfjs-dist in the browser, loaded on first use only (it is the heaviest
 * script of the app) with its worker served from our own build, never a CDN.
 * One loaded document per file URL, shared by every thumbnail of that file.
 */
import type { PDFDocumentProxy } from "pdfjs-dist";

type Pdfjs = typeof import("pdfjs-dist");

let pdfjs: Promise<Pdfjs> | undefined;
const documents = new Map<string, Promise<PDFDocumentProxy>>();

function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= import("pdfjs-dist").then((module) => {
    // The bundler emits the worker as an asset of our build and gives its URL.
    module.GlobalWorkerOptions.workerSrc = new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url).toString();
    return module;
  });
  return pdfjs;
}

export function loadPdfDocument(url: string): Promise<PDFDocumentProxy> {
  let loading = documents.get(url);
  if (!loading) {
    loading = loadPdfjs().then((module) => module.getDocument({ url, isEvalSupported: false }).promise);
    // A failed load is not cached: the next mount tries again.
    loading.catch(() => documents.delete(url));
    documents.set(url, loading);
  }
  return loading;
}
