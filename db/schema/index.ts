export * from "./organizations";
export * from "./users";
export * from "./memberships";
export * from "./api-keys";
export * from "./rate-limits";
export * from "./analyses";
export * from "./audit-events";
export * from "./document-sets";
