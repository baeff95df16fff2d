/**
 * The SQLSTATE and DETAIL of a database error, from either driver (node-postgres,
 * PGlite) and through drizzle's error wrapper, which keeps the driver's error as
 * its cause; undefined for an error that is no database's.
 */
export function databaseErrorOf(error: unknown): { code: string; detail?: string } | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const { code, detail } = current as { code?: unknown; detail?: unknown };
    if (typeof code === "string") return { code, detail: typeof detail === "string" ? detail : undefined };
  }
  return undefined;
}
