import { hash, verify } from "@node-rs/argon2";

/**
 * OWASP Password Storage parameters for argon2id (m=19 MiB, t=2, p=1).
 * `algorithm` is the numeric value of the package's const enum Algorithm.Argon2id,
 * which isolated modules cannot import by name.
 */
const ARGON2ID = 2;
const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/** False (never a throw) for a wrong password or an unreadable stored hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}
