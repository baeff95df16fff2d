export { createApiKey, SANDBOX_KEY_LIFETIME_MS } from "./create-api-key";
export { createUser, PASSWORD_MAX_LENGTH, type CreatedUser } from "./create-user";
export { findOrganizationBySlug } from "./find-organization-by-slug";
export { listApiKeys } from "./list-api-keys";
export { hashPassword, verifyPassword } from "./password-hash";
export { recordAnalysis } from "./record-analysis";
export { OPERATOR } from "./operator";
export { revokeApiKey } from "./revoke-api-key";
export { forgetLearnedLayout, listLearnedLayoutSummaries, type LearnedLayoutSummary } from "./learned-layouts";
