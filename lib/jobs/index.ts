/**
 * The analysis service: the one path by which a document becomes an analysis,
 * whoever asks (the API, web uploads, compare, the worker). See the README,
 * "Jobs".
 */
export { precheckAdmission } from "./admission";
export { analysisQueue, stopAnalysisQueue, type AnalysisQueue, type WebhookEntry } from "./analysis-queue";
export { checkDocument, checkSniffedDocument, declaredPartType, type DeclaredType } from "./check-document";
export { IdempotencyConflictError, OrganizationBusyError } from "./errors";
export { resultOf } from "./outcome";
export { enqueueStoredFile, findIdempotentJob, storeInput, submitAnalyses, submitOnce, wakeWorkers, type DocumentContent, type StoredUpload } from "./submit-analysis";
export { waitForAnalysis } from "./wait-for-analysis";
export { forgetAnalysisWorker, startAnalysisWorker } from "./worker";
