import { describe, expect, it } from "vitest";
import { listenHostFor } from "@/scripts/listen-host.mjs";

describe("where npm start listens", () => {
  it.each([
    ["the trial default", "http://localhost:3000", "127.0.0.1"],
    ["a plain-http loopback address", "http://127.0.0.1:3100", "127.0.0.1"],
    ["a plain-http IPv6 loopback", "http://[::1]:3000", "::1"],
  ])("on loopback only with %s, whose cookies go without Secure", (_name, origin, host) => {
    expect(listenHostFor(origin, undefined)).toBe(host);
  });

  it.each([
    ["an https origin", "https://shipshape.example"],
    ["an https loopback origin", "https://localhost:3443"],
    ["an http origin behind a TLS-terminating proxy", "http://shipshape.example"],
    ["no usable origin", undefined],
  ])("where Next listens by default with %s", (_name, origin) => {
    expect(listenHostFor(origin, undefined)).toBeUndefined();
  });

  it("where the operator's HOSTNAME says, whatever the origin", () => {
    expect(listenHostFor("http://localhost:3000", "0.0.0.0")).toBe("0.0.0.0");
  });
});
