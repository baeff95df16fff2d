/**
 * Teaching a layout once in the browser: a member adds the L/C number the
 * reading missed on one invoice; the next invoice of that seller and layout
 * (other values) reads its own L/C number where it was taught, marked
 * Learned with where from; an admin finds the layout under Learned layouts
 * and forgets it with one click and a confirmation. axe finds no violation
 * on the views this adds.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { familiesOf, generateSameLayoutDocument } from "../test/fixtures/generator/families/index";
import { STORAGE_STATE } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { saveScreenshot } from "./support/screenshots";

const OUT_DIR = path.join("test-results", "checker-e2e");
const READ_TIMEOUT_MS = 90_000;
const LABEL_ABOVE = familiesOf("development").find((f) => f.name === "label-above")!;
/**
 * A template of the label-above family whose invoices the engine reads without their L/C number
 * (the first of 91000–91079 that still has one: as the engine reads more, the template must move).
 */
const TEMPLATE = 91_006;
const SET_NAME = "LC 7 — teach";

test.describe.configure({ mode: "serial" });

async function uploadTo(page: Page, setId: string, bytes: Uint8Array, name: string): Promise<void> {
  await page.evaluate(async ({ id, data, fileName }) => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(data)], { type: "application/pdf" }), fileName);
    await fetch(`/api/sets/${id}/files`, { method: "POST", body: form });
  }, { id: setId, data: [...bytes], fileName: name });
}

async function expectNoViolations(page: Page, name: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

test.describe("as a member", () => {
  test.use({ storageState: STORAGE_STATE.member });

  test("a value added on one invoice is read on the next invoice of the layout, marked learned", async ({ page }) => {
    test.setTimeout(4 * READ_TIMEOUT_MS);
    const first = await generateSameLayoutDocument("commercial_invoice", TEMPLATE, TEMPLATE, LABEL_ABOVE);
    const second = await generateSameLayoutDocument("commercial_invoice", TEMPLATE, TEMPLATE + 500, LABEL_ABOVE);
    const firstLc = first.expected[0]!.extracted.lc_number as string;
    const secondLc = second.expected[0]!.extracted.lc_number as string;
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(path.join(OUT_DIR, "teach-invoice-a.pdf"), first.pdf);

    await page.goto("/sets");
    const setId = await page.evaluate(async (name) => {
      const created = await fetch("/api/sets", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) });
      return ((await created.json()) as { id: string }).id;
    }, SET_NAME);
    await uploadTo(page, setId, first.pdf, "invoice-a.pdf");
    await page.goto(`/sets/${setId}`);
    await page.getByRole("button", { name: /^Open Document 1: Commercial Invoice/ }).click({ timeout: READ_TIMEOUT_MS });
    const detail = page.getByRole("complementary", { name: "Selected document" });
    await expect(detail.locator('tr[data-field="lc_number"]')).toHaveCount(0);

    // The reading missed the L/C number: the checker adds it.
    await detail.getByLabel("Add a value", { exact: true }).selectOption({ label: "L/C number" });
    await detail.getByLabel("Value of L/C number").fill(firstLc);
    await detail.getByRole("button", { name: "Add", exact: true }).click();
    await expect(detail.locator('tr[data-field="lc_number"]')).toContainText("Corrected");

    // The next invoice of this seller and layout, with its own values.
    await uploadTo(page, setId, second.pdf, "invoice-b.pdf");
    await page.reload();
    const next = page.getByRole("button", { name: /^Open Document 1: Commercial Invoice/ }).nth(1);
    await next.click({ timeout: READ_TIMEOUT_MS });
    const row = detail.locator('tr[data-field="lc_number"]');
    await expect(row).toContainText(secondLc);
    await expect(row).toContainText("Learned");
    await expect(row).toContainText(`read where it was taught on invoice-a.pdf p. 1 in set ${SET_NAME}`);
    await row.getByRole("button", { name: /^L\/C number:/ }).click();
    await expect(detail.locator(".evidence-active")).toBeVisible();
    await expectNoViolations(page, "set-documents-learned");
    await page.setViewportSize({ width: 1680, height: 1050 });
    await saveScreenshot(page, "checker-teach-learned");

    await page.getByRole("tab", { name: "History" }).click();
    await expect(page.getByRole("list", { name: "History of this set" })).toContainText("taught the layout where to read L/C number");
  });
});

test.describe("as an admin", () => {
  test.use({ storageState: STORAGE_STATE.admin });

  test("lists the learned layout and forgets it with one click and a confirmation", async ({ page }) => {
    await page.goto("/admin/layouts");
    const table = page.getByRole("table");
    await expect(table).toContainText("Commercial Invoice");
    await expect(table).toContainText("L/C number: from invoice-a.pdf p. 1");
    await expectNoViolations(page, "admin-layouts-listed");
    await saveScreenshot(page, "checker-teach-admin");
    await page.getByRole("button", { name: /^Forget the Commercial Invoice layout/ }).click();
    const dialog = page.getByRole("dialog", { name: "Forget this layout?" });
    await expect(dialog).toBeVisible();
    await expectNoViolations(page, "admin-layouts-forgetting");
    await dialog.getByRole("button", { name: "Forget layout" }).click();
    await expect(page.getByText("No learned layouts yet")).toBeVisible();
    await page.goto("/admin/audit");
    await expect(page.getByRole("main")).toContainText("Learned layout forgotten");
  });
});
