import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Where a generated secret is kept when NEXTAUTH_SECRET is unset (git-ignored with the rest of .data/). */
const AUTH_SECRET_FILE = path.join(process.cwd(), ".data", "auth-secret");
/** 256 bits: next-auth derives its A256GCM session-encryption key from this. */
const SECRET_BYTES = 32;
const MIN_SECRET_LENGTH = 32;

let cached: string | undefined;

/**
 * The secret that encrypts session tokens: NEXTAUTH_SECRET when set, otherwise
 * one generated on first use and kept in .data/auth-secret, so a fresh machine
 * works with `npm start` and sessions survive restarts. Several processes may
 * start at once: the link makes exactly one of them win.
 */
export function resolveAuthSecret(): string {
  if (cached) return cached;
  const fromEnv = process.env.NEXTAUTH_SECRET;
  if (fromEnv) {
    if (fromEnv.length < MIN_SECRET_LENGTH) throw new Error(`NEXTAUTH_SECRET must have at least ${MIN_SECRET_LENGTH} characters`);
    cached = fromEnv;
    return cached;
  }
  cached = readOrCreateSecretFile(AUTH_SECRET_FILE);
  return cached;
}

/** Reads the secret kept in `file`, creating it first when it does not exist. */
export function readOrCreateSecretFile(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) {
    // Written whole to a private temporary file, then linked into place: a reader never sees half a secret.
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    fs.writeFileSync(temporary, randomBytes(SECRET_BYTES).toString("base64url"), { mode: 0o600 });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      fs.unlinkSync(temporary);
    }
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`${file} holds no usable secret: delete it to generate a new one`);
  return secret;
}
