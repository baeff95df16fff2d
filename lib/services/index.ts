export { createApiKey, SANDBOX_KEY_LIFETIME_MS, type CreatedApiKey } from "./create-api-key";
export { createUser, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type CreatedUser } from "./create-user";
export { findOrganizationBySlug } from "./find-organization-by-slug";
export { listApiKeys, type ApiKeyStatus, type ApiKeySummary } from "./list-api-keys";
export { hashPassword, PASSWORD_HASH_OPTIONS, verifyPassword } from "./password-hash";
export { recordAnalysis, type RecordAnalysisInput } from "./record-analysis";
export { OPERATOR } from "./operator";
export { revokeApiKey } from "./revoke-api-key";
export { requireAdmin } from "./authorize";
