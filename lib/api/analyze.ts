import "server-only";
import { createHash } from "node:crypto";
import { pageTextsOf } from "@/lib/analysis/examine/page-text";
import { analyzePages } from "@/lib/analysis/pipeline";
import { ingestDocumentIsolated } from "@/lib/analysis/isolate/ingest-isolated";
import { FORMAT_MIME_TYPES, sniffFormat } from "@/lib/analysis/ingest/sniff";
import type { SplitResult } from "@/lib/analysis/types";
import { env } from "@/lib/env";
import { recordAnalysis } from "@/lib/services";
import { ApiError } from "./errors";
import type { KeyedContext } from "./handler";
import { readAnalyzeForm } from "./multipart";
import { ANALYSIS_ID_HEADER } from "./openapi";
import { fetchDocument, OPAQUE_CONTENT_TYPE } from "./url-fetch";

const BYTES_PER_MB = 2 ** 20;
/** The record keeps at most this much of a file name or url. */
const INPUT_NAME_MAX_LENGTH = 255;
const EVIDENCE_VALUES: Record<string, boolean> = { true: true, false: false };
const SUPPORTED_FORMATS_TEXT = "PDF, DOCX, EML, PNG, JPEG, TIFF or WebP";

interface IncomingDocument {
  name: string;
  bytes: Uint8Array;
  /** What the sender said it is; only fetched urls have one worth checking. */
  declaredType?: string;
}

function evidenceOption(request: Request): boolean {
  const value = new URL(request.url).searchParams.get("evidence");
  if (value === null) return false;
  const flag = EVIDENCE_VALUES[value];
  if (flag === undefined) throw new ApiError("bad_request", `The evidence parameter must be true or false, not "${value}".`);
  return flag;
}

async function receiveDocument(request: Request): Promise<IncomingDocument> {
  const { MAX_UPLOAD_MB, URL_FETCH_TIMEOUT_MS, URL_MAX_REDIRECTS } = env();
  const maxBytes = MAX_UPLOAD_MB * BYTES_PER_MB;
  const input = await readAnalyzeForm(request, maxBytes);
  if (input.kind === "file") return input;
  return fetchDocument(input.url, { maxBytes, timeoutMs: URL_FETCH_TIMEOUT_MS, maxRedirects: URL_MAX_REDIRECTS });
}

/** The format is decided by the bytes alone; a declared type that disagrees with them is refused. */
function checkDocumentBytes(document: IncomingDocument): void {
  if (document.bytes.length === 0) throw new ApiError("unprocessable", "The document is empty (0 bytes).");
  const format = sniffFormat(document.bytes);
  if (!format) {
    throw new ApiError("unsupported_media_type", `The document is not a format we read; send a ${SUPPORTED_FORMATS_TEXT} document.`);
  }
  const declared = document.declaredType;
  if (declared !== undefined && declared !== OPAQUE_CONTENT_TYPE && declared !== FORMAT_MIME_TYPES[format]) {
    throw new ApiError(
      "unsupported_media_type",
      `The url is served as ${declared} but its bytes are ${format.toUpperCase()}; serve the document with its real type.`,
    );
  }
}

function pageCountOf(result: SplitResult[]): number {
  return Math.max(0, ...result.flatMap((part) => part.split.pages));
}

/**
 * POST /v1/documents/analyze, once the key and the rate limit have passed:
 * receive the file or fetch the url, check the bytes, read it in an isolated
 * reader process, split, classify and extract the pages, record
 * the analysis for the organization and return the engine's array as is.
 */
export async function analyzeRequest(request: Request, { db, key }: KeyedContext): Promise<Response> {
  const evidence = evidenceOption(request);
  const document = await receiveDocument(request);
  checkDocumentBytes(document);
  const started = performance.now();
  // Reading (parsing, OCR) runs in the isolated reader pool, where a hostile file is killed at its
  // time or memory cap (422) without touching this process; the organization takes its turn in the
  // queue, and a full queue is 503. What follows is pure work on pages, here.
  const pages = await ingestDocumentIsolated(document.bytes, { maxPages: env().MAX_PAGES, tenant: key.organizationId });
  const result = analyzePages(pages, { evidence, fileName: document.name });
  const durationMs = Math.round(performance.now() - started);
  const analysis = await recordAnalysis(db, {
    organizationId: key.organizationId,
    apiKeyId: key.id,
    inputName: document.name.slice(0, INPUT_NAME_MAX_LENGTH),
    inputBytes: document.bytes.length,
    sha256: createHash("sha256").update(document.bytes).digest("hex"),
    pageCount: pageCountOf(result),
    result,
    pageText: pageTextsOf(pages),
    durationMs,
  });
  // The body stays the engine's array; the stored analysis is named beside it, for compare's analysis_id.
  return Response.json(result, { headers: { [ANALYSIS_ID_HEADER]: analysis.id } });
}
