import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import path from "node:path";
import { readOrCreateSecretFile } from "@/lib/auth/secret";
import { env } from "@/lib/env";

/** Where a generated pepper is kept when WEBHOOK_SECRET_PEPPER is unset (git-ignored with the rest of .data/). */
const PEPPER_FILE = path.join(process.cwd(), ".data", "webhook-pepper");
const SECRET_PREFIX = "whsec_";
/** Characters of the secret shown after it was created: the prefix and four more. */
const VISIBLE_START_LENGTH = SECRET_PREFIX.length + 4;
const SALT_BYTES = 32;

function pepper(): string {
  return env().WEBHOOK_SECRET_PEPPER ?? readOrCreateSecretFile(PEPPER_FILE);
}

/** A fresh salt: a new secret for the organization (its first, or a rotation). */
export function newWebhookSalt(): string {
  return randomBytes(SALT_BYTES).toString("base64url");
}

/**
 * The organization's signing secret. It is never stored: it is derived from
 * the server's pepper (outside the database), the organization and the salt
 * (in it), so a copy of the database alone cannot forge a webhook, and every
 * process holding the pepper signs alike.
 */
export function webhookSecretOf(organizationId: string, salt: string): string {
  const digest = createHmac("sha256", pepper()).update(`webhook-secret\n${organizationId}\n${salt}`).digest("base64url");
  return `${SECRET_PREFIX}${digest}`;
}

export function visibleStartOf(secret: string): string {
  return secret.slice(0, VISIBLE_START_LENGTH);
}

export const SIGNATURE_HEADER = "shipshape-signature";

/**
 * The signature header of one delivery: `t=<unix seconds>,v1=<hex>`, where
 * v1 is HMAC-SHA-256 of `<t>.<body>` under the secret. Signing the time with
 * the body lets a receiver refuse an old delivery replayed to it.
 */
export function signatureOf(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${v1}`;
}
