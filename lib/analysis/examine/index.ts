/** Public entry of the examination engine. */
export { examinePresentation, MAX_DOCUMENTS } from "./examine";
export { RULES } from "./catalog";
export { ExaminationError } from "./errors";
export { DEFAULT_TOLERANCES } from "./tolerances";
export type * from "./types";
export type { RuleSpec } from "./rule-kit";
