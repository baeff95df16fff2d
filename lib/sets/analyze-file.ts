import "server-only";
import type { Db } from "@/db/client";
import { findSetFile, updateSetFile } from "@/db/queries/sets-files";
import { AnalysisError } from "@/lib/analysis/errors";
import { pageTextsOf } from "@/lib/analysis/examine/page-text";
import { analyzePages } from "@/lib/analysis/pipeline";
import { ingestDocumentIsolated, sharedPool } from "@/lib/analysis/isolate/ingest-isolated";
import type { ProcessPool } from "@/lib/analysis/isolate/pool";
import { env } from "@/lib/env";
import { recordAnalysis } from "@/lib/services/record-analysis";
import { databaseFileStore, type FileStore } from "./storage";

const INTERNAL_FAILURE = "The file could not be analysed because of an internal error; try uploading it again.";

function pageCountOf(pages: { number: number }[]): number {
  return Math.max(0, ...pages.map((p) => p.number));
}

/**
 * Reads, splits, classifies and extracts one stored file, keeping the state in
 * the database (`analyzing`, then `done` or `failed` with the reason) so any
 * request can report progress. The pages are kept, so corrections re-extract
 * without reading the file again. Never throws.
 */
export async function analyzeFile(
  db: Db,
  params: { organizationId: string; setId: string; fileId: string; userId: string | null },
  store: FileStore = databaseFileStore(db),
  /** The reader pool; the server's shared one except in tests that need their own caps. */
  pool: ProcessPool = sharedPool(),
): Promise<void> {
  const scope = { organizationId: params.organizationId, fileId: params.fileId };
  try {
    const file = await findSetFile(db, params);
    if (!file) return;
    await updateSetFile(db, scope, { status: "analyzing", errorDetail: null });
    const bytes = await store.get({ organizationId: params.organizationId, storageKey: file.storageKey });
    if (!bytes) throw new Error(`stored bytes of ${file.id} are missing`);
    const started = performance.now();
    // Read in the isolated reader pool (time and memory caps, the organization's turn in the queue).
    // Unbounded: the set queue (analysis-queue.ts) already hands the pool at most PARALLEL_ANALYSES
    // files at a time, and an upload already accepted should wait its turn rather than fail.
    const pages = await ingestDocumentIsolated(bytes, { maxPages: env().MAX_PAGES, tenant: params.organizationId, bounded: false }, pool);
    const result = analyzePages(pages, { evidence: true, fileName: file.fileName });
    const analysis = await recordAnalysis(db, {
      organizationId: params.organizationId,
      userId: params.userId,
      inputName: file.fileName,
      inputBytes: file.sizeBytes,
      sha256: file.sha256,
      pageCount: pageCountOf(pages),
      result,
      pageText: pageTextsOf(pages),
      durationMs: Math.round(performance.now() - started),
    });
    await updateSetFile(db, scope, { status: "done", pageCount: pageCountOf(pages), analysisId: analysis.id, pages });
  } catch (error) {
    const detail = error instanceof AnalysisError ? error.message : INTERNAL_FAILURE;
    if (!(error instanceof AnalysisError)) console.error(`set file ${params.fileId}: analysis failed`, error);
    await updateSetFile(db, scope, { status: "failed", errorDetail: detail }).catch((e: unknown) =>
      console.error(`set file ${params.fileId}: could not record the failure`, e),
    );
  }
}
