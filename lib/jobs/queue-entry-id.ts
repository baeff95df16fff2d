import { randomBytes } from "node:crypto";

/** The last id's millisecond and its counter within that millisecond (UUIDv7's 12-bit rand_a field). */
const last = { ms: 0, sequence: 0 };
const MAX_SEQUENCE = 0xfff;

/**
 * An id for a queue entry that sorts in the order this process made it.
 * pg-boss hands out the entries of one priority by `created_on`, then by id;
 * `created_on` is the start of the transaction that sent the entry, so entries
 * sent in one transaction (the files of a compare) tie on it, and random ids
 * handed them out in any order. UUIDv7's layout (RFC 9562: 48 bits of Unix
 * milliseconds, a counter within the millisecond, random bits), kept
 * increasing even if the clock steps back, makes the tie first in, first out;
 * PostgreSQL compares uuids byte by byte.
 */
export function orderedEntryId(now: number = Date.now()): string {
  if (now > last.ms) {
    last.ms = now;
    last.sequence = 0;
  } else if (++last.sequence > MAX_SEQUENCE) {
    last.ms++;
    last.sequence = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(last.ms, 0, 6);
  bytes[6] = 0x70 | (last.sequence >> 8);
  bytes[7] = last.sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
