/**
 * Accessibility: axe-core's WCAG 2.x A/AA rules on every main page (signed
 * out, first run, member, admin) and on each view of a set with the checker's
 * controls open, in Chromium. No serious or critical violation may remain;
 * every violation found (any impact) is written to
 * test-results/checker-e2e/axe.json and printed. @axe-core/playwright
 * declares Node >= 22.12, so axe-core itself is evaluated in the page.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { renderPlantedPacket } from "../test/sets/planted-packet";
import { STORAGE_STATE } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { FIRST_RUN_URL } from "./support/servers";

const OUT_DIR = path.join("test-results", "checker-e2e");
const BLOCKING = new Set(["serious", "critical"]);
const TYPES = ["letter_of_credit", "commercial_invoice", "bill_of_lading", "certificate_of_weight"] as const;

const results: Record<string, { id: string; impact: string | null; help: string; targets: string[] }[]> = {};

test.describe.configure({ mode: "serial" });
test.afterAll(() => {
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(path.join(OUT_DIR, "axe.json"), `${JSON.stringify(results, null, 2)}\n`);
});

/** Runs axe on the page as it is now; records every violation and fails on a serious or critical one. */
async function checkPage(page: Page, name: string): Promise<void> {
  const violations = await axeViolations(page);
  results[name] = violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
  console.log(`axe ${name}: ${violations.length === 0 ? "no violations" : violations.map((v) => `${v.impact} ${v.id} (${v.nodes.length})`).join(", ")}`);
  const blocking = violations.filter((v) => BLOCKING.has(v.impact ?? ""));
  expect(blocking, `${name}: ${JSON.stringify(blocking, null, 2)}`).toEqual([]);
}

test.describe("signed out", () => {
  test("the sign-in page and the first-run page", async ({ page }) => {
    await page.goto("/signin");
    await expect(page.getByRole("button", { name: /Sign in/ })).toBeVisible();
    await checkPage(page, "signin");
    await page.goto(`${FIRST_RUN_URL}/onboarding`);
    await expect(page.getByRole("heading").first()).toBeVisible();
    await checkPage(page, "onboarding");
  });
});

test.describe("as an admin", () => {
  test.use({ storageState: STORAGE_STATE.admin });
  test("the keys, members, learned layouts and audit pages", async ({ page }) => {
    for (const [name, url] of [["admin-keys", "/admin"], ["admin-members", "/admin/members"], ["admin-layouts", "/admin/layouts"], ["admin-audit", "/admin/audit"]] as const) {
      await page.goto(url);
      await expect(page.getByRole("main")).toBeVisible();
      await checkPage(page, name);
    }
  });
});

test.describe("as a member", () => {
  test.use({ storageState: STORAGE_STATE.member });

  test("the set list, the new-set page and the API reference", async ({ page }) => {
    for (const [name, url] of [["sets", "/sets"], ["sets-new", "/sets/new"], ["docs", "/docs"]] as const) {
      await page.goto(url);
      await expect(page.getByRole("main")).toBeVisible();
      await checkPage(page, name);
    }
  });

  test("a set's documents, correction form, comparison with decisions, and history", async ({ page }) => {
    const packet = await renderPlantedPacket(3, 1250, TYPES);
    await page.goto("/sets");
    // Created through the set routes from the page itself, as the new-set page does.
    const setId = await page.evaluate(async ({ bytes, date }) => {
      const created = await fetch("/api/sets", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Accessibility check", presentationDate: date }) });
      const { id } = (await created.json()) as { id: string };
      const form = new FormData();
      form.set("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), "packet.pdf");
      await fetch(`/api/sets/${id}/files`, { method: "POST", body: form });
      return id;
    }, { bytes: [...packet.pdf], date: packet.presentationDate });
    await page.goto(`/sets/${setId}`);
    await expect(page.getByRole("status").filter({ hasText: "Presentation status" })).toBeVisible({ timeout: 90_000 });

    await page.getByRole("button", { name: /^Open Document \d+: Certificate of Weight/ }).click();
    const detail = page.getByRole("complementary", { name: "Selected document" });
    await expect(detail.locator(".viewer canvas")).toHaveAttribute("data-state", "drawn");
    await detail.getByRole("button", { name: "Correct Gross weight (kg)" }).click();
    await expect(detail.getByLabel("Corrected Gross weight (kg)")).toBeFocused();
    await checkPage(page, "set-documents-correcting");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: /^Open Document \d+: Commercial Invoice/ }).click();
    await checkPage(page, "set-documents-invoice");

    await page.getByRole("tab", { name: /Comparison/ }).click();
    const findings = page.getByRole("complementary", { name: /Findings/ });
    await findings.getByRole("button", { name: "Accept" }).first().click();
    await expect(findings).toContainText("Accepted: stands");
    await findings.getByRole("button", { name: "Waive…" }).first().click();
    await expect(findings.getByLabel("Why is this finding waived?")).toBeFocused();
    await checkPage(page, "set-comparison");

    await page.getByRole("tab", { name: "History" }).click();
    await expect(page.getByRole("list", { name: "History of this set" })).toBeVisible();
    await checkPage(page, "set-history");
  });
});
