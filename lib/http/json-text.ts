import { ApiError } from "@/lib/errors";

/**
 * A request body's JSON, or an ApiError (400) saying what is wrong with it.
 * A string holding U+0000 is refused here, where it arrives: PostgreSQL's text
 * cannot store it, so further in it would be a 500 from whichever query first
 * met it (a set's name, a member's e-mail).
 */
export function parseJsonText(text: string, notJson = "The request body must be JSON."): unknown {
  let hasNul = false;
  let value: unknown;
  try {
    value = JSON.parse(text, (key, item) => {
      if (key.includes("\0") || (typeof item === "string" && item.includes("\0"))) hasNul = true;
      return item;
    });
  } catch {
    throw new ApiError("invalid_input", notJson);
  }
  if (hasNul) throw new ApiError("invalid_input", "The request body holds a NUL character (\\u0000), which no field accepts.");
  return value;
}
