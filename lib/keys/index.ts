export { API_KEY_LENGTH, API_KEY_PREFIXES, digestApiKey, generateApiKey, parseApiKey, type ParsedApiKey } from "./format";
export {
  LAST_USED_DEBOUNCE_MS,
  verifyApiKey,
  type VerifiedApiKey,
  type VerifyApiKeyResult,
  type VerifyFailureReason,
} from "./verify";
export { FAILED_LOOKUPS, verifyApiKeyFrom, type AddressedVerifyResult, type FailedLookupPolicy } from "./failed-lookups";
