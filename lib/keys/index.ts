export { generateApiKey, parseApiKey } from "./format";
export { verifyApiKey, type VerifiedApiKey, type VerifyFailureReason } from "./verify";
export { verifyApiKeyFrom } from "./failed-lookups";
