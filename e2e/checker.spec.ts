/**
 * The checker's workflow in the browser, as a member: a presentation whose
 * certificate of weight states 1,250 kg more than the other documents. Waive
 * every open finding with a note (the status turns compliant and the set's
 * history shows the note), accept one (discrepant), then correct the
 * certificate's gross weight from the keyboard beside its evidence: the
 * mismatch leaves the comparison and the findings at once. Then the exports:
 * the PDF read back with pdfjs, the XLSX with exceljs, the CSV as text.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import ExcelJS from "exceljs";
import { pageTexts } from "../test/fixtures/generator/printed-text";
import { renderPlantedPacket } from "../test/sets/planted-packet";
import { STORAGE_STATE } from "./support/accounts";
import { saveScreenshot } from "./support/screenshots";

const OUT_DIR = path.join("test-results", "checker-e2e");
const TYPES = ["letter_of_credit", "commercial_invoice", "bill_of_lading", "certificate_of_weight"] as const;
const SET_NAME = "LC 5120 — checker";
const SPLITS_TIMEOUT_MS = 90_000;

test.use({ storageState: STORAGE_STATE.member });
test.describe.configure({ mode: "serial" });

async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, name);
}

/** Creates the set through the new-set page and waits for the examination. */
async function createCheckerSet(page: Page): Promise<{ grossKg: number }> {
  const packet = await renderPlantedPacket(3, 1250, TYPES);
  mkdirSync(OUT_DIR, { recursive: true });
  const file = path.join(OUT_DIR, "checker-packet.pdf");
  writeFileSync(file, packet.pdf);
  await page.goto("/sets/new");
  await page.getByLabel("Set name").fill(SET_NAME);
  await page.getByLabel("Presentation date (optional)").fill(packet.presentationDate);
  await page.getByLabel(/choose files/).setInputFiles(file);
  await page.getByRole("button", { name: "Create set and upload 1 file" }).click();
  await expect(page.locator(".split-group").first()).toBeVisible({ timeout: SPLITS_TIMEOUT_MS });
  await expect(page.getByRole("status").filter({ hasText: "Presentation status" })).toBeVisible({ timeout: SPLITS_TIMEOUT_MS });
  return { grossKg: packet.grossKg };
}

let grossKg = 0;

test("waives findings with a note, accepts one, and the status and the set's history follow", async ({ page }) => {
  ({ grossKg } = await createCheckerSet(page));
  const status = page.getByRole("status").filter({ hasText: "Presentation status" });
  await expect(status).toContainText("Pending");
  await page.getByRole("tab", { name: /Comparison/ }).click();
  const findings = page.getByRole("complementary", { name: /Findings/ });
  const weightFinding = findings.locator('li[data-rule="consistency.gross_weight"]');
  await expect(weightFinding).toBeVisible();

  // Waive every open finding from the keyboard: the note is asked for, and Waive stays off without one.
  const waiveButtons = findings.getByRole("button", { name: "Waive…" });
  let waived = 0;
  while ((await waiveButtons.count()) > 0) {
    await waiveButtons.first().focus();
    await page.keyboard.press("Enter");
    const note = findings.getByLabel("Why is this finding waived?");
    await expect(note).toBeFocused();
    await expect(findings.getByRole("button", { name: "Waive", exact: true })).toBeDisabled();
    await page.keyboard.type(`Discussed with the applicant, waiver ${waived + 1}`);
    await findings.getByRole("button", { name: "Waive", exact: true }).click();
    await expect(findings.getByLabel("Why is this finding waived?")).toHaveCount(0);
    waived += 1;
  }
  expect(waived).toBeGreaterThan(0);
  await expect(status).toContainText("Compliant");
  await expect(weightFinding).toContainText("Waived");
  await expect(weightFinding).toContainText("Discussed with the applicant");

  // Accepting one brings the presentation to discrepant.
  await weightFinding.getByRole("button", { name: "Reopen" }).click();
  await expect(status).toContainText("Pending");
  await weightFinding.getByRole("button", { name: "Accept" }).click();
  await expect(status).toContainText("Discrepant");
  await expect(weightFinding).toContainText("Accepted: stands");
  await page.setViewportSize({ width: 1680, height: 1050 });
  await screenshot(page, "checker-decisions");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The set's history (the audit log) names each decision, its author and note.
  await page.getByRole("tab", { name: "History" }).click();
  const history = page.getByRole("list", { name: "History of this set" });
  await expect(history.getByRole("listitem").first()).toContainText("accepted the finding");
  await expect(history).toContainText("waived the finding");
  await expect(history).toContainText("Discussed with the applicant, waiver 1");
  await expect(history).toContainText("reopened the finding");
  await expect(history).toContainText(/member-.*@example\.test/);
  await screenshot(page, "checker-history");
});

test("corrects a value beside its evidence from the keyboard: the mismatch leaves the comparison and findings", async ({ page }) => {
  await page.goto("/sets");
  await page.getByRole("link", { name: SET_NAME }).click();
  await page.getByRole("button", { name: /^Open Document \d+: Certificate of Weight/ }).click();
  const detail = page.getByRole("complementary", { name: "Selected document" });
  const row = detail.locator('tr[data-field="gross_weight_kg"]');
  await expect(row).toContainText("24,360");

  const correct = detail.getByRole("button", { name: "Correct Gross weight (kg)" });
  await correct.focus();
  await page.keyboard.press("Enter");
  const input = detail.getByLabel("Corrected Gross weight (kg)");
  await expect(input).toBeFocused();
  await expect(input).toHaveValue("24360");
  // A value that is not a figure is refused in words, and nothing changes.
  await input.fill("heavy");
  await page.keyboard.press("Enter");
  await expect(detail.getByRole("alert")).toContainText("gross_weight_kg is a number");
  await input.fill(String(grossKg));
  await page.keyboard.press("Enter");
  await expect(row).toContainText("Corrected");
  await expect(row).toContainText("was 24,360");
  await expect(row).toContainText(/member-.*@example\.test/);
  await expect(correct).toBeFocused();
  // The evidence is still on the page where the value was read.
  await row.getByRole("button", { name: /^Gross weight \(kg\):/ }).click();
  await expect(detail.locator(".evidence-active")).toBeVisible();
  await screenshot(page, "checker-correction");

  // Marked reviewed, with who.
  await detail.getByRole("button", { name: "Mark reviewed" }).click();
  await expect(detail).toContainText(/Reviewed by member-/);

  await page.getByRole("tab", { name: /Comparison/ }).click();
  const gross = page.locator('tr[data-row="gross_weight"]');
  await expect(gross).not.toHaveClass(/row-mismatch/);
  await expect(gross.locator("td.cell-off")).toHaveCount(0);
  const findings = page.getByRole("complementary", { name: /Findings/ });
  await expect(findings.locator('li[data-rule="consistency.gross_weight"]')).toHaveCount(0);
  await page.setViewportSize({ width: 1680, height: 1050 });
  await screenshot(page, "checker-comparison-corrected");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Undo puts the value read back, and the mismatch with it.
  await page.getByRole("tab", { name: "Documents" }).click();
  await row.getByRole("button", { name: "Undo the correction of Gross weight (kg)" }).click();
  await expect(row).not.toContainText("Corrected");
  await page.getByRole("tab", { name: /Comparison/ }).click();
  await expect(gross).toHaveClass(/row-mismatch/);
});

test("exports the discrepancy report as PDF and the comparison as XLSX and CSV, holding the findings and decisions", async ({ page }) => {
  await page.goto("/sets");
  await page.getByRole("link", { name: SET_NAME }).click();
  await page.getByRole("tab", { name: /Comparison/ }).click();
  const exports = page.getByRole("navigation", { name: "Export" });

  const download = async (name: string) => {
    const [file] = await Promise.all([page.waitForEvent("download"), exports.getByRole("link", { name }).click()]);
    const target = path.join(OUT_DIR, file.suggestedFilename());
    await file.saveAs(target);
    return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync(target)), target };
  };

  const pdf = await download("Discrepancy report (PDF)");
  expect(pdf.name).toBe("lc-5120-checker-discrepancy-report.pdf");
  const text = (await pageTexts(pdf.bytes)).join(" ").replace(/\s+/g, " ");
  expect(text).toContain("Discrepancy report");
  expect(text).toContain(SET_NAME);
  expect(text).toContain("Presentation status Discrepant");
  expect(text).toContain("Credit terms examined");
  expect(text).toMatch(/UCP 600 art\. \d+/);
  expect(text).toContain("Accepted: stands");
  expect(text).toContain("Discussed with the applicant, waiver");
  expect(text).toMatch(/member-.*@example\.test/);
  console.log(`exported PDF: ${pdf.target} (${pdf.bytes.length} bytes)`);

  const xlsx = await download("Comparison (XLSX)");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(xlsx.bytes) as unknown as ArrayBuffer);
  const matrix = workbook.getWorksheet("Comparison")!;
  expect(matrix.getRow(1).getCell(1).value).toBe("Fact");
  const grossRow = matrix.getRows(2, matrix.rowCount - 1)!.find((r) => String(r.getCell(1).value).startsWith("Gross weight"))!;
  expect(grossRow.getCell(2).value).toBe("Mismatch");
  const figures = (grossRow.values as unknown[]).filter((v): v is number => typeof v === "number");
  expect(figures.length).toBeGreaterThanOrEqual(2);
  const findings = workbook.getWorksheet("Findings")!;
  const decisions = findings.getColumn(7).values.slice(2);
  expect(decisions).toContain("Accepted: stands");
  expect(decisions).toContain("Waived");

  const csv = await download("Comparison (CSV)");
  const lines = new TextDecoder().decode(csv.bytes).split("\r\n");
  expect(lines[0]).toMatch(/^Fact,Status,Reason,/);
  expect(lines.find((l) => l.startsWith("Gross weight"))).toContain("Mismatch");
});
