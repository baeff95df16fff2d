import { createHash, randomBytes } from "node:crypto";
import type { ApiKeyKind } from "@/db/schema";
import { base62Width, encodeBase62, encodeBytesBase62, isBase62 } from "@/lib/base62";
import { crc32 } from "./crc32";

/**
 * Key format (GitHub's 2021 token scheme): a scannable prefix naming the kind,
 * 32 CSPRNG bytes in base62, then a base62 CRC-32 of everything before it so a
 * mistyped key is refused without touching the database.
 */
const API_KEY_PREFIXES = { production: "ss_live_", sandbox: "ss_test_" } as const satisfies Record<
  ApiKeyKind,
  string
>;

/** 256 bits of randomness, well above ASVS 11.5.1's 128. */
export const API_KEY_RANDOM_BYTES = 32;
const RANDOM_CHARS = base62Width(API_KEY_RANDOM_BYTES);
/** Enough base62 characters for any 32-bit CRC. */
const CHECKSUM_CHARS = 6;
/** Random characters kept in `start` so people can tell their keys apart; 24 bits, harmless to show. */
const VISIBLE_RANDOM_CHARS = 4;
const PREFIX_LENGTH = API_KEY_PREFIXES.production.length;
export const API_KEY_LENGTH = PREFIX_LENGTH + RANDOM_CHARS + CHECKSUM_CHARS;

export interface ParsedApiKey {
  key: string;
  kind: ApiKeyKind;
  /** The short visible part stored for display, e.g. `ss_test_AbCd`. */
  start: string;
}

function checksumOf(body: string): string {
  return encodeBase62(BigInt(crc32(body)), CHECKSUM_CHARS);
}

function kindOfPrefix(prefix: string): ApiKeyKind | undefined {
  if (prefix === API_KEY_PREFIXES.production) return "production";
  if (prefix === API_KEY_PREFIXES.sandbox) return "sandbox";
  return undefined;
}

/** A fresh key of `kind`; the caller shows it once and stores only its digest. */
export function generateApiKey(kind: ApiKeyKind): string {
  const body = API_KEY_PREFIXES[kind] + encodeBytesBase62(randomBytes(API_KEY_RANDOM_BYTES));
  return body + checksumOf(body);
}

/** Checks prefix, length, alphabet and checksum; pure, no database. Null when malformed. */
export function parseApiKey(text: string): ParsedApiKey | null {
  if (text.length !== API_KEY_LENGTH) return null;
  const kind = kindOfPrefix(text.slice(0, PREFIX_LENGTH));
  if (!kind) return null;
  const random = text.slice(PREFIX_LENGTH, PREFIX_LENGTH + RANDOM_CHARS);
  const checksum = text.slice(PREFIX_LENGTH + RANDOM_CHARS);
  if (!isBase62(random) || !isBase62(checksum)) return null;
  if (checksumOf(text.slice(0, PREFIX_LENGTH + RANDOM_CHARS)) !== checksum) return null;
  return { key: text, kind, start: text.slice(0, PREFIX_LENGTH + VISIBLE_RANDOM_CHARS) };
}

/** SHA-256 hex of the key: a plain hash suffices for 256-bit random secrets (ASVS 6.5.2). */
export function digestApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}
