/**
 * The pages' Content-Security-Policy (proxy.ts) in a real browser: every page
 * still hydrates and pdfjs still draws a document's pages, and the browser
 * reports no violation — a nonce Next.js failed to put on one of its scripts,
 * or a worker, style or image the policy forgot, would show here.
 */
import path from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { makeTextPdf } from "../test/fixtures/formats/scan-fixtures";
import { STORAGE_STATE } from "./support/accounts";
import { saveScreenshot } from "./support/screenshots";

test.use({ storageState: STORAGE_STATE.member });

/** Collects securitypolicyviolation events from the moment each document starts. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

/** The analysis of the one-page PDF waits for a reader, which a loaded machine may keep busy. */
const ANALYSIS_TIMEOUT_MS = 180_000;

test("pages carry a nonce CSP, hydrate, draw a PDF with pdfjs, and violate nothing", async ({ page }) => {
  test.setTimeout(ANALYSIS_TIMEOUT_MS + 60_000);
  const violations = await watchViolations(page);
  const response = await page.goto("/sets");
  const policy = response!.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toContain("unsafe-eval");
  expect(response!.headers()["x-frame-options"]).toBe("DENY");
  expect(response!.headers()["referrer-policy"]).toBe("same-origin");
  await expect(page.getByRole("heading", { name: "Document sets", exact: true })).toBeVisible();
  expect(await violations()).toEqual([]);

  const dir = path.join("test-results", "csp-e2e");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "invoice.pdf");
  writeFileSync(file, await makeTextPdf([{ lines: ["COMMERCIAL INVOICE", "Invoice No: INV-5512", "Total: USD 12,400.00"] }]));
  await page.goto("/sets/new");
  await page.getByLabel("Set name").fill("CSP check");
  // Choosing a file and seeing it listed needs the client component: hydration ran under the policy.
  await page.getByLabel(/choose files/).setInputFiles(file);
  await expect(page.getByRole("list", { name: "Chosen files" })).toContainText("invoice.pdf");
  await page.getByRole("button", { name: "Create set and upload 1 file" }).click();
  await expect(page.locator(".split-group").first()).toBeVisible({ timeout: ANALYSIS_TIMEOUT_MS });
  await expect(page.locator('.thumbs canvas[data-state="drawn"]').first()).toBeVisible({ timeout: 30_000 });
  await saveScreenshot(page, "csp-set-view");
  expect(await violations()).toEqual([]);

  await page.goto("/docs");
  await expect(page.getByRole("heading").first()).toBeVisible();
  expect(await violations()).toEqual([]);
});
