/** Base62 keeps tokens double-click selectable and URL-safe (no `-`, `+`, `/`). */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE = BigInt(ALPHABET.length);
const BASE62_PATTERN = /^[0-9A-Za-z]*$/;

/** `value` in base62, left-padded with "0" to exactly `width` characters. */
export function encodeBase62(value: bigint, width: number): string {
  if (value < 0n) throw new RangeError("base62 encodes non-negative integers only");
  let digits = "";
  let rest = value;
  while (rest > 0n) {
    digits = ALPHABET[Number(rest % BASE)] + digits;
    rest /= BASE;
  }
  if (digits.length > width) throw new RangeError(`value needs more than ${width} base62 characters`);
  return digits.padStart(width, "0");
}

/** Characters needed to write any `byteCount`-byte number in base62. */
export function base62Width(byteCount: number): number {
  return Math.ceil((byteCount * 8) / Math.log2(ALPHABET.length));
}

/** Bytes as one big-endian number in base62, at a fixed width so every encoding has the same length. */
export function encodeBytesBase62(bytes: Uint8Array): string {
  const value = bytes.reduce((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
  return encodeBase62(value, base62Width(bytes.length));
}

export function isBase62(text: string): boolean {
  return BASE62_PATTERN.test(text);
}
