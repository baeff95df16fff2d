/**
 * Progress while a scanned file is read: the set page shows the reader's real
 * pages read of the file's pages, and a time left once a scanned page has been
 * read, then the file's documents once it is done.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { makeMixedPdf } from "../test/fixtures/formats/scanned-pdf";
import { INVOICE_LINES } from "../test/fixtures/formats/sample-text";
import { STORAGE_STATE } from "./support/accounts";
import { saveScreenshot } from "./support/screenshots";

const OUT_DIR = path.join("test-results", "checker-e2e");
/** OCR of four scanned pages on a loaded 2-core machine. */
const READ_TIMEOUT_MS = 240_000;

test.use({ storageState: STORAGE_STATE.member });

test("a scanned file shows pages read of its pages and the time left while it is read", async ({ page }) => {
  test.setTimeout(READ_TIMEOUT_MS + 60_000);
  const pdf = await makeMixedPdf([{ digital: ["COVERING SCHEDULE", "Documents presented under credit LC58213409"] }, ...[1, 2, 3, 4].map(() => ({ scanned: { lines: INVOICE_LINES } }))]);
  mkdirSync(OUT_DIR, { recursive: true });
  const file = path.join(OUT_DIR, "scanned-progress.pdf");
  writeFileSync(file, pdf);
  await page.goto("/sets/new");
  await page.getByLabel("Set name").fill("LC 5120 — scanned");
  await page.getByLabel(/choose files/).setInputFiles(file);
  await page.getByRole("button", { name: "Create set and upload 1 file" }).click();

  const status = page.getByRole("status").filter({ hasText: /pages read/ });
  await expect(status).toContainText(/of 5 pages read/, { timeout: READ_TIMEOUT_MS });
  // The estimate comes once a scanned page has been read at the reader's pace.
  await expect(status).toContainText(/[2-4] of 5 pages read · (about \d+ min left|less than a minute left)/, { timeout: READ_TIMEOUT_MS });
  await expect(page.getByRole("progressbar", { name: "Reading scanned-progress.pdf" })).toBeVisible();
  await saveScreenshot(page, "checker-progress");

  await expect(page.locator(".file-row").filter({ hasText: "Analysed" })).toBeVisible({ timeout: READ_TIMEOUT_MS });
  await expect(status).toHaveCount(0);
});
