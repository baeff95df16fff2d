/**
 * Teaching a layout once in the browser: a member adds a value the reading
 * missed on one invoice; the next invoice of that seller and layout (other
 * values) reads its own value where it was taught, marked Learned with where
 * from; an admin finds the layout under Learned layouts and forgets it with
 * one click and a confirmation. axe finds no violation on the views this adds.
 * The template and the field are chosen at run time from what the engine
 * misses, so the test never depends on one particular miss of the engine.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { analyzeDocument } from "../lib/analysis";
import { labelOfKey } from "../lib/sets/format";
import { familiesOf, generateSameLayoutDocument } from "../test/fixtures/generator/families/index";
import type { Fixture } from "../test/fixtures/generator/packet";
import { STORAGE_STATE } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { saveScreenshot } from "./support/screenshots";

const OUT_DIR = path.join("test-results", "checker-e2e");
const READ_TIMEOUT_MS = 90_000;
const LABEL_ABOVE = familiesOf("development").find((f) => f.name === "label-above")!;
/** Templates (layout seeds) of the label-above family looked at, from the first, for one whose invoice the engine misreads. */
const FIRST_TEMPLATE = 91_000;
const TEMPLATES = 80;
/** The second invoice of a template: the same seller and layout, other values. */
const SECOND_INVOICE = 500;
/** An ISO date is shown reformatted; the value taught must read back as typed. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const SET_NAME = "LC 7 — teach";

test.describe.configure({ mode: "serial" });

async function uploadTo(page: Page, setId: string, bytes: Uint8Array, name: string): Promise<void> {
  await page.evaluate(async ({ id, data, fileName }) => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(data)], { type: "application/pdf" }), fileName);
    await fetch(`/api/sets/${id}/files`, { method: "POST", body: form });
  }, { id: setId, data: [...bytes], fileName: name });
}

interface Lesson {
  template: number;
  first: Fixture;
  second: Fixture;
  /** A field the engine reads no value for on the first invoice: the checker adds it. */
  field: string;
}

/**
 * The first template whose first invoice the engine reads without a field (as test/sets/teach-layout.test.ts
 * picks a misread one) whose value is text shown as typed and differs on the second invoice, so that reading
 * it there shows the layout was taught, not the value.
 */
async function findLesson(): Promise<Lesson> {
  for (let template = FIRST_TEMPLATE; template < FIRST_TEMPLATE + TEMPLATES; template++) {
    const first = await generateSameLayoutDocument("commercial_invoice", template, template, LABEL_ABOVE);
    const second = await generateSameLayoutDocument("commercial_invoice", template, template + SECOND_INVOICE, LABEL_ABOVE);
    const expected = first.expected[0]!.extracted;
    const read = (await analyzeDocument(first.pdf.slice()))[0]?.extracted ?? {};
    const field = Object.keys(expected).find((f) => read[f] === undefined && typeof expected[f] === "string" && !ISO_DATE.test(expected[f]) && expected[f] !== second.expected[0]!.extracted[f]);
    if (field) return { template, first, second, field };
  }
  throw new Error(`the engine reads every text field of the first invoice of templates ${FIRST_TEMPLATE}–${FIRST_TEMPLATE + TEMPLATES - 1}: nothing to teach`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function expectNoViolations(page: Page, name: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

test.describe("as a member", () => {
  test.use({ storageState: STORAGE_STATE.member });

  test("a value added on one invoice is read on the next invoice of the layout, marked learned", async ({ page }) => {
    test.setTimeout(4 * READ_TIMEOUT_MS);
    const { template, first, second, field } = await findLesson();
    test.info().annotations.push({ type: "taught", description: `${field} on template ${template}` });
    const label = labelOfKey(field);
    const firstValue = first.expected[0]!.extracted[field] as string;
    const secondValue = second.expected[0]!.extracted[field] as string;
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
    await expect(detail.locator(`tr[data-field="${field}"]`)).toHaveCount(0);

    // The reading missed the field: the checker adds it.
    await detail.getByLabel("Add a value", { exact: true }).selectOption({ value: field });
    await detail.getByLabel(`Value of ${label}`).fill(firstValue);
    await detail.getByRole("button", { name: "Add", exact: true }).click();
    await expect(detail.locator(`tr[data-field="${field}"]`)).toContainText("Corrected");

    // The next invoice of this seller and layout, with its own values.
    await uploadTo(page, setId, second.pdf, "invoice-b.pdf");
    await page.reload();
    const next = page.getByRole("button", { name: /^Open Document 1: Commercial Invoice/ }).nth(1);
    await next.click({ timeout: READ_TIMEOUT_MS });
    const row = detail.locator(`tr[data-field="${field}"]`);
    await expect(row).toContainText(secondValue);
    await expect(row).toContainText("Learned");
    await expect(row).toContainText(`read where it was taught on invoice-a.pdf p. 1 in set ${SET_NAME}`);
    await row.getByRole("button", { name: new RegExp(`^${escapeRegExp(label)}:`) }).click();
    await expect(detail.locator(".evidence-active")).toBeVisible();
    await expectNoViolations(page, "set-documents-learned");
    await page.setViewportSize({ width: 1680, height: 1050 });
    await saveScreenshot(page, "checker-teach-learned");

    await page.getByRole("tab", { name: "History" }).click();
    await expect(page.getByRole("list", { name: "History of this set" })).toContainText(`taught the layout where to read ${label}`);
  });
});

test.describe("as an admin", () => {
  test.use({ storageState: STORAGE_STATE.admin });

  test("lists the learned layout and forgets it with one click and a confirmation", async ({ page }) => {
    await page.goto("/admin/layouts");
    const table = page.getByRole("table");
    await expect(table).toContainText("Commercial Invoice");
    await expect(table).toContainText(/: from invoice-a\.pdf p\. 1/);
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
