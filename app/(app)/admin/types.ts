/** The admin route handlers' JSON, as the browser receives it (dates are ISO strings). */

export type KeyKind = "production" | "sandbox";
export type Role = "admin" | "member";

export interface ApiKeyItem {
  id: string;
  name: string | null;
  kind: KeyKind;
  start: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  status: "active" | "revoked" | "expired";
}

export interface IssuedKey {
  key: string;
  record: Pick<ApiKeyItem, "id" | "name" | "kind" | "start" | "createdAt" | "expiresAt">;
}

export interface MemberItem {
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
  disabled: boolean;
}

export interface AuditItem {
  id: number;
  action: string;
  actor: string;
  actorEmail: string | null;
  target: string | null;
  targetEmail: string | null;
  detail: Record<string, unknown>;
  createdAt: string;
}

export interface WebhookSecretItem {
  configured: boolean;
  start: string | null;
  createdAt: string | null;
}

export interface RotatedWebhookSecret {
  secret: string;
  start: string;
  createdAt: string;
}

export const ADMIN_QUERY_KEYS = {
  keys: ["admin", "keys"],
  webhookSecret: ["admin", "webhook-secret"],
  members: ["admin", "members"],
  audit: ["admin", "audit"],
  layouts: ["admin", "layouts"],
} as const;

/** A layout taught by a checker's correction (GET /api/admin/layouts). */
export interface LearnedLayoutItem {
  id: string;
  documentType: string;
  issuer: string;
  fingerprintId: string;
  fields: { field: string; setId: string; setName: string; fileName: string; pages: number[]; taughtAt: string }[];
  createdByEmail: string | null;
  createdAt: string;
  updatedAt: string;
}
