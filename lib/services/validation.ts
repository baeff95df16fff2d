import { z } from "zod";
import { ApiError } from "@/lib/errors";

/** Lower-case letters, digits and inner hyphens: safe in URLs and CLI arguments. */
export const ORGANIZATION_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const API_KEY_NAME_MAX_LENGTH = 100;

export const organizationIdSchema = z.string().min(1, "organizationId is required");

/** Parses `input` or throws an ApiError naming the first problem. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  throw new ApiError("invalid_input", `${where}${issue?.message ?? "invalid input"}`);
}
