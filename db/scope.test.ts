import { describe, expect, it, vi } from "vitest";

describe("the row-level security scope", () => {
  it("is one per process, whichever copy of the module entered it (Next bundles it more than once)", async () => {
    const first = await import("./scope");
    vi.resetModules();
    const second = await import("./scope");
    expect(second).not.toBe(first);
    const seen = await first.withOrganizationScope("org_one", async () => second.currentScopeSettings());
    expect(seen).toEqual(["org_one", ""]);
    expect(await second.withSystemScope("operator", async () => first.currentScopeSettings())).toEqual(["", "operator"]);
    expect(first.currentScopeSettings()).toEqual(["", ""]);
  });
});
