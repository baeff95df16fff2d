import { z } from "zod";

/** ASVS 6.2.1 asks for at least 8; 12 is the current OWASP advice. The cap bounds hashing work. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** A password someone chooses (first password, new password): the same rule everywhere. */
export function passwordSchema(name: string) {
  return z
    .string(`${name} is required`)
    .min(PASSWORD_MIN_LENGTH, `${name} must have at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `${name} must have at most ${PASSWORD_MAX_LENGTH} characters`);
}
