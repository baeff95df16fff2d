import { databaseErrorOf } from "@/db/database-error";

/** PostgreSQL's unique_violation, from either driver and through drizzle's error wrapper. */
export function isUniqueViolation(error: unknown): boolean {
  return databaseErrorOf(error)?.code === "23505";
}
