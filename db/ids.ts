import { randomBytes } from "node:crypto";
import { encodeBytesBase62 } from "@/lib/base62";

/** Public ids carry their type (`key_…`), so a pasted id says what it is. */
/** Document sets use `set` (set), `sfl` (set file), `cor` (split correction), `blob` (stored file), `fcr` (field correction), `rev` (document review) and `dec` (finding decision); `whk` is a webhook delivery attempt; `lay` a learned layout. */
export type IdPrefix = "org" | "usr" | "key" | "ana" | "set" | "sfl" | "cor" | "blob" | "fcr" | "rev" | "dec" | "whk" | "lay";

/** 128 random bits: unguessable and collision-free without a database round trip. */
const ID_RANDOM_BYTES = 16;

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${encodeBytesBase62(randomBytes(ID_RANDOM_BYTES))}`;
}
