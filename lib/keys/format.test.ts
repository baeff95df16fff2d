import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { base62Width, encodeBase62, encodeBytesBase62, isBase62 } from "@/lib/base62";
import { crc32 } from "./crc32";
import { API_KEY_LENGTH, API_KEY_RANDOM_BYTES, digestApiKey, generateApiKey, parseApiKey } from "./format";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("crc32", () => {
  it("matches the standard check value and zlib's empty-input value", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(crc32("")).toBe(0);
    expect(crc32("The quick brown fox jumps over the lazy dog")).toBe(0x414fa339);
  });
});

describe("base62", () => {
  it("pads to a fixed width and refuses values that do not fit", () => {
    expect(encodeBase62(0n, 3)).toBe("000");
    expect(encodeBase62(61n, 2)).toBe("0z");
    expect(encodeBase62(62n, 2)).toBe("10");
    expect(() => encodeBase62(62n ** 2n, 2)).toThrow(RangeError);
  });

  it("writes every 32-byte value, the largest included, in 43 characters", () => {
    expect(base62Width(32)).toBe(43);
    expect(encodeBytesBase62(new Uint8Array(32).fill(0xff))).toHaveLength(43);
    expect(encodeBytesBase62(new Uint8Array(32))).toBe("0".repeat(43));
  });

  it("recognises its alphabet only", () => {
    expect(isBase62(BASE62)).toBe(true);
    expect(isBase62("abc_")).toBe(false);
    expect(isBase62("abc-")).toBe(false);
  });
});

describe("API key format", () => {
  it("uses ss_live_ for production and ss_test_ for sandbox", () => {
    const live = generateApiKey("production");
    const test = generateApiKey("sandbox");
    expect(live).toMatch(/^ss_live_[0-9A-Za-z]{49}$/);
    expect(test).toMatch(/^ss_test_[0-9A-Za-z]{49}$/);
    expect(parseApiKey(live)).toEqual({ key: live, kind: "production", start: live.slice(0, 12) });
    expect(parseApiKey(test)?.kind).toBe("sandbox");
    expect(live).toHaveLength(API_KEY_LENGTH);
  });

  it("carries at least 128 bits of randomness", () => {
    expect(API_KEY_RANDOM_BYTES * 8).toBeGreaterThanOrEqual(128);
    const keys = Array.from({ length: 2000 }, () => generateApiKey("sandbox"));
    expect(new Set(keys).size).toBe(keys.length);
    // Leading random characters spread across the alphabet rather than repeating a pattern.
    const seen = new Set(keys.map((key) => key.slice(8, 10)));
    expect(seen.size).toBeGreaterThan(1000);
  });

  it("rejects every one-character typo through the checksum", () => {
    const key = generateApiKey("production");
    for (let position = 8; position < key.length; position++) {
      const original = key[position]!;
      const replacement = BASE62[(BASE62.indexOf(original) + 1 + position) % BASE62.length]!;
      const typo = key.slice(0, position) + replacement + key.slice(position + 1);
      expect(typo).not.toBe(key);
      expect(parseApiKey(typo), `typo at ${position}`).toBeNull();
    }
  });

  it("rejects swapped adjacent characters", () => {
    const key = generateApiKey("sandbox");
    const position = key.slice(8).search(/(.)(?!\1)/) + 8;
    const swapped = key.slice(0, position) + key[position + 1] + key[position] + key.slice(position + 2);
    expect(swapped).not.toBe(key);
    expect(parseApiKey(swapped)).toBeNull();
  });

  it("rejects wrong prefixes, lengths and alphabets", () => {
    const key = generateApiKey("production");
    const body = key.slice(8);
    expect(parseApiKey("")).toBeNull();
    expect(parseApiKey(key.slice(0, -1))).toBeNull();
    expect(parseApiKey(`${key}0`)).toBeNull();
    expect(parseApiKey(`sk_live_${body}`)).toBeNull();
    expect(parseApiKey(`SS_LIVE_${body}`)).toBeNull();
    expect(parseApiKey(` ${key.slice(1)}`)).toBeNull();
    expect(parseApiKey(`${key.slice(0, 20)}-${key.slice(21)}`)).toBeNull();
    expect(parseApiKey(`${key.slice(0, 20)}é${key.slice(21)}`)).toBeNull();
  });

  it("rejects a re-prefixed key: the checksum covers the prefix", () => {
    const live = generateApiKey("production");
    expect(parseApiKey(`ss_test_${live.slice(8)}`)).toBeNull();
  });

  it("digests to the SHA-256 hex of the key", () => {
    const key = generateApiKey("sandbox");
    const digest = digestApiKey(key);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).toBe(createHash("sha256").update(key).digest("hex"));
    expect(digestApiKey(generateApiKey("sandbox"))).not.toBe(digest);
  });
});
