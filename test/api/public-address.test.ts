import { describe, expect, it } from "vitest";
import { ipLiteralOf, isPublicAddress } from "@/lib/api/public-address";

// One address inside each range the security checklist (§1) says to refuse.
const NON_PUBLIC = [
  "0.0.0.0", "0.1.2.3", "10.0.0.1", "100.64.0.1", "100.127.255.254", "127.0.0.1", "127.255.0.9", "169.254.169.254",
  "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.168.1.1", "198.18.0.1", "198.19.255.1", "224.0.0.1",
  "240.0.0.1", "255.255.255.255", "::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "64:ff9b::7f00:1",
  "2002:7f00:1::", "2001::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "ff02::1",
  // IPv4-compatible (::/96), public IPv4 embedded or not.
  "::7f00:1", "::127.0.0.1", "::a00:1", "::808:808", "::8.8.8.8", "fe80::1%eth0",
];
const PUBLIC = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001:82a::200e", "::ffff:8.8.8.8"];

describe("isPublicAddress", () => {
  it.each(NON_PUBLIC)("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(PUBLIC)("accepts %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("refuses what is not an address at all", () => {
    expect(isPublicAddress("example.com")).toBe(false);
    expect(isPublicAddress("")).toBe(false);
  });
});

describe("ipLiteralOf", () => {
  it.each([
    ["http://127.1/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://2130706433/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://0/", "0.0.0.0"],
    ["http://[::1]/", "::1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
  ])("reads %s as the literal %s", (url, literal) => {
    expect(ipLiteralOf(new URL(url).hostname)).toBe(literal);
  });

  it("leaves host names to the resolver", () => {
    expect(ipLiteralOf("localhost")).toBeUndefined();
    expect(ipLiteralOf("localhost.")).toBeUndefined();
    expect(ipLiteralOf("example.com")).toBeUndefined();
  });
});
