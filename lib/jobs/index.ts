/**
 * The analysis service: the one path by which a document becomes an analysis,
 * whoever asks (the API, web uploads, compare, the worker). See the README,
 * "Jobs".
 */
export { precheckAdmission } from "./admission";
export { analysisQueue, stopAnalysisQueue, type AnalysisQueue } from "./analysis-queue";
export { checkDocument, declaredPartType, type DeclaredType } from "./check-document";
export { AnalysisJobError, IdempotencyConflictError, OrganizationBusyError } from "./errors";
export { resultOf } from "./outcome";
export { readDocument, type ReadDocument } from "./read-document";
export { enqueueStoredFile, findIdempotentJob, submitAnalyses, submitOnce, wakeWorkers, type DocumentInput, type StoredFileInput } from "./submit-analysis";
export { waitForAnalysis } from "./wait-for-analysis";
export { ensureInProcessWorker, forgetAnalysisWorker, startAnalysisWorker } from "./worker";
