/**
 * Document sets in the browser, as a member: create a set, upload a generated
 * 10-page presentation with a planted gross-weight discrepancy (the
 * certificate of weight states 1,250 kg more than every other document), see
 * its splits and types, a field's evidence on the page, and the mismatch in
 * the comparison. Times from upload to first splits shown and the set view's
 * page weight are logged and written to test-results/sets-e2e/measurements.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { scanPdf } from "../test/fixtures/formats/variants";
import { renderPlantedPacket } from "../test/sets/planted-packet";
import { STORAGE_STATE } from "./support/accounts";
import { saveScreenshot } from "./support/screenshots";

/** Full-page screenshots from the top: a scrolled page would show the sticky app bar halfway down. */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, name);
}

const OUT_DIR = path.join("test-results", "sets-e2e");
/** Seed whose presentation renders to exactly 10 pages. */
const PACKET_SEED = 8;
const PLANTED_EXTRA_KG = 1250;
const DIGITAL_SPLITS_TIMEOUT_MS = 60_000;
const SCANNED_SPLITS_TIMEOUT_MS = 300_000;

const measurements: Record<string, unknown> = {};

test.use({ storageState: STORAGE_STATE.member });
test.describe.configure({ mode: "serial" });

test.afterAll(() => {
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(path.join(OUT_DIR, "measurements.json"), `${JSON.stringify(measurements, null, 2)}\n`);
});

/** Creates a set with one file through the new-set page; returns the ms from the click to the first split on screen. */
async function createSetWithFile(
  page: Page,
  set: { name: string; date: string; file: string; screenshots?: boolean },
  splitsTimeoutMs: number,
): Promise<number> {
  const { name, date, file } = set;
  await page.goto("/sets/new");
  await page.getByLabel("Set name").fill(name);
  await page.getByLabel("Presentation date (optional)").fill(date);
  await page.getByLabel(/choose files/).setInputFiles(file);
  await expect(page.getByRole("list", { name: "Chosen files" })).toContainText(path.basename(file));
  if (set.screenshots) await screenshot(page, "set-new");
  const started = Date.now();
  await page.getByRole("button", { name: "Create set and upload 1 file" }).click();
  if (set.screenshots) {
    await expect(page.getByRole("status").filter({ hasText: /Analysing|Queued for analysis/ })).toBeVisible({ timeout: splitsTimeoutMs });
    await screenshot(page, "set-analysing");
  }
  await expect(page.locator(".split-group").first()).toBeVisible({ timeout: splitsTimeoutMs });
  return Date.now() - started;
}

test("uploads a 10-page packet, shows its splits, a field's evidence and the planted gross-weight mismatch", async ({ page }) => {
  const packet = await renderPlantedPacket(PACKET_SEED, PLANTED_EXTRA_KG);
  expect(packet.pageCount).toBe(10);
  mkdirSync(OUT_DIR, { recursive: true });
  const file = path.join(OUT_DIR, "digital-packet.pdf");
  writeFileSync(file, packet.pdf);

  await page.goto("/sets");
  await expect(page.getByRole("heading", { name: "Document sets", exact: true })).toBeVisible();
  const set = { name: "LC 4471 — digital presentation", date: packet.presentationDate, file };
  const elapsed = await createSetWithFile(page, set, DIGITAL_SPLITS_TIMEOUT_MS);
  measurements.digitalUploadToFirstSplitsMs = elapsed;
  console.log(`upload → first splits shown, 10-page digital packet: ${elapsed} ms`);

  // Splits with their types and pages.
  const files = page.getByRole("list", { name: "Files of this set" });
  await expect(files).toContainText("Analysed");
  await expect(files).toContainText("10 pages");
  const invoice = page.getByRole("button", { name: /^Open Document \d+: Commercial Invoice/ });
  await expect(invoice).toBeVisible();
  await expect(page.getByRole("button", { name: /^Open Document \d+: Certificate of Weight/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Open Document \d+: Bill of Lading/ })).toBeVisible();
  // Thumbnails are drawn by pdfjs as they scroll into view: bring each one in and wait for all ten.
  const thumbnails = page.locator(".thumbs canvas");
  await expect(thumbnails).toHaveCount(10);
  for (const thumbnail of await thumbnails.all()) await thumbnail.scrollIntoViewIfNeeded();
  await expect(page.locator('.thumbs canvas[data-state="drawn"]')).toHaveCount(10, { timeout: 30_000 });
  await page.evaluate(() => window.scrollTo(0, 0));

  // A field's evidence: the gross weight on the certificate of weight, boxed on its page.
  await page.getByRole("button", { name: /^Open Document \d+: Certificate of Weight/ }).click();
  const detail = page.getByRole("complementary", { name: "Selected document" });
  await detail.getByRole("button", { name: /^Gross weight \(kg\): 50,330/ }).click();
  const box = detail.locator(".evidence-active");
  await expect(box).toBeVisible();
  await expect(detail.locator(".viewer canvas")).toHaveAttribute("data-state", "drawn");
  const boxSize = await box.boundingBox();
  expect(boxSize!.width).toBeGreaterThan(5);
  await expect(detail).toContainText("Read as");
  await screenshot(page, "set-view");

  // The comparison: the certificate's gross weight is flagged against the others.
  await page.getByRole("tab", { name: /Comparison/ }).click();
  const gross = page.locator('tr[data-row="gross_weight"]');
  await expect(gross).toHaveClass(/row-mismatch/);
  await expect(gross.getByRole("rowheader")).toContainText("Mismatch");
  await expect(gross.getByRole("rowheader")).toContainText("Certificate of Weight");
  await expect(gross.getByRole("rowheader")).toContainText("Tolerance ±1 kg");
  await expect(gross.locator("td.cell-off")).toHaveCount(1);
  await expect(gross.locator("td.cell-off")).toContainText("50,330");
  // Shown against the value the other documents agree on (±1 kg of 49,080 kg).
  await expect(gross.locator("td.cell-off")).toContainText(/\(\+1,2(50|49\.\d+)\)/);
  const findings = page.getByRole("complementary", { name: /Findings/ });
  const weightFinding = findings.getByRole("listitem").filter({ hasText: /gross weight/i }).first();
  await expect(weightFinding).toBeVisible();
  // A checker's screen: wide enough for the findings beside the matrix.
  await page.setViewportSize({ width: 1680, height: 1050 });
  await screenshot(page, "set-comparison");
  await page.setViewportSize({ width: 1280, height: 800 });

  // A finding leads to its pages.
  await weightFinding.getByRole("button", { name: /Certificate of Weight/ }).click();
  await expect(page.getByRole("tab", { name: "Documents" })).toHaveAttribute("aria-selected", "true");
  await expect(detail).toContainText("Certificate of Weight");

  // Page weight of the set view, loaded afresh: scripts and styles as transferred.
  const weights = await measureSetViewWeight(page, page.url());
  measurements.setViewWeight = weights;
  console.log(`set view page weight: ${JSON.stringify(weights)}`);
});

test("corrects splits by hand, keeps the corrections, and works from the keyboard", async ({ page }) => {
  await page.goto("/sets");
  await page.getByRole("link", { name: "LC 4471 — digital presentation" }).click();
  const weight = page.getByRole("button", { name: /^Open Document (\d+): Certificate of Weight/ });
  const index = Number(/Document (\d+)/.exec((await weight.getAttribute("aria-label"))!)![1]);

  // Change a type: kept across a reload.
  await page.getByLabel(`Document type of document ${index}`).selectOption("certificate_of_quality");
  await expect(page.getByRole("button", { name: new RegExp(`^Open Document ${index}: Certificate of Quality`) })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(`Document type of document ${index}`)).toHaveValue("certificate_of_quality");

  // Move a boundary: the credit's second page as a document of its own, then merged back.
  await page.getByRole("button", { name: "Start a new document at page 2" }).click();
  await expect(page.getByRole("button", { name: "Open Document 2: Letter of Credit, p. 2" })).toBeVisible();
  await page.getByRole("button", { name: "Merge document 2 with the previous document" }).click();
  await expect(page.getByRole("button", { name: "Open Document 1: Letter of Credit, pp. 1–2" })).toBeVisible();
  await page.getByRole("button", { name: "Undo corrections" }).click();
  await expect(page.getByRole("button", { name: new RegExp(`^Open Document ${index}: Certificate of Weight`) })).toBeVisible();

  // Keyboard: open a document with Enter, a field's evidence with Space, switch tabs with the arrow keys.
  await page.getByRole("button", { name: /^Open Document \d+: Commercial Invoice/ }).focus();
  await page.keyboard.press("Enter");
  const detail = page.getByRole("complementary", { name: "Selected document" });
  await expect(detail).toContainText("Commercial Invoice");
  await detail.getByRole("button", { name: /^Invoice number:/ }).focus();
  await page.keyboard.press("Space");
  await expect(detail.locator(".evidence-active")).toBeVisible();
  await page.getByRole("tab", { name: "Documents" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: /Comparison/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: /Comparison/ })).toBeFocused();
});

test("uploads the same packet scanned and shows its splits", async ({ page }) => {
  test.setTimeout(SCANNED_SPLITS_TIMEOUT_MS + 60_000);
  const packet = await renderPlantedPacket(PACKET_SEED, PLANTED_EXTRA_KG);
  const file = path.join(OUT_DIR, "scanned-packet.pdf");
  writeFileSync(file, await scanPdf(packet.pdf));
  const set = { name: "LC 4471 — scanned presentation", date: packet.presentationDate, file, screenshots: true };
  const elapsed = await createSetWithFile(page, set, SCANNED_SPLITS_TIMEOUT_MS);
  measurements.scannedUploadToFirstSplitsMs = elapsed;
  console.log(`upload → first splits shown, 10-page scanned packet: ${elapsed} ms`);
  await expect(page.getByRole("list", { name: "Files of this set" })).toContainText("10 pages");
  await expect(page.getByRole("button", { name: /^Open Document \d+: Commercial Invoice/ })).toBeVisible();

  await page.goto("/sets");
  await expect(page.getByRole("link", { name: "LC 4471 — digital presentation" })).toBeVisible();
  await expect(page.getByRole("link", { name: "LC 4471 — scanned presentation" })).toBeVisible();
  await screenshot(page, "sets-list");

  // Deleting asks first, then the set is gone from the list.
  await page.getByRole("link", { name: "LC 4471 — scanned presentation" }).click();
  await page.getByRole("button", { name: "Delete set" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete “LC 4471 — scanned presentation”?" });
  await dialog.getByRole("button", { name: "Delete set" }).click();
  await expect(page).toHaveURL(/\/sets$/);
  await expect(page.getByRole("link", { name: "LC 4471 — scanned presentation" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "LC 4471 — digital presentation" })).toBeVisible();
});

interface PageWeight {
  /** Scripts and styles of the page itself, without the PDF reader. */
  scriptBytes: number;
  styleBytes: number;
  /** pdfjs and its worker, fetched on first use by the page viewer. */
  pdfReaderBytes: number;
  files: { path: string; kind: string; bytes: number }[];
}

/** A string only pdfjs's own code carries (its fake-worker fallback message). */
const PDFJS_MARKER = "Setting up fake worker";

/**
 * Bytes of every script and style sheet of a fresh load of `url`, as sent on
 * the wire (compressed: the resource timing's encoded body size, which the
 * browser reports even when it answers from its cache).
 */
async function measureSetViewWeight(page: Page, url: string): Promise<PageWeight> {
  await page.goto(url);
  await page.getByRole("button", { name: /^Open Document 1:/ }).waitFor();
  await expect(page.locator('canvas[data-state="drawn"]').first()).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  const files = await page.evaluate(async (marker) => {
    const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const assets = entries.filter((e) => /\.(m?js|css)(\?|$)/.test(new URL(e.name).pathname));
    return Promise.all(
      assets.map(async (e) => {
        const path = new URL(e.name).pathname;
        const css = path.endsWith(".css");
        const reader = path.includes("pdf.worker") || (!css && (await (await fetch(e.name)).text()).includes(marker));
        return { path, kind: css ? "stylesheet" : reader ? "pdf-reader" : "script", bytes: e.encodedBodySize };
      }),
    );
  }, PDFJS_MARKER);
  const sum = (kind: string) => files.filter((f) => f.kind === kind).reduce((total, f) => total + f.bytes, 0);
  return { scriptBytes: sum("script"), styleBytes: sum("stylesheet"), pdfReaderBytes: sum("pdf-reader"), files };
}
