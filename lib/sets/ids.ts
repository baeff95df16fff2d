import { randomBytes } from "node:crypto";
import { encodeBytesBase62 } from "@/lib/keys/base62";

/** Prefixed like db/ids.ts (`set_…`, `sfl_…`, `cor_…`, `blob_…`) so a pasted id says what it is. */
export type SetIdPrefix = "set" | "sfl" | "cor" | "blob";

const ID_RANDOM_BYTES = 16;

export function newSetId(prefix: SetIdPrefix): string {
  return `${prefix}_${encodeBytesBase62(randomBytes(ID_RANDOM_BYTES))}`;
}
