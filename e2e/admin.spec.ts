import { expect, test, type Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { STORAGE_STATE } from "./support/accounts";
import { saveScreenshot } from "./support/screenshots";

test.use({ storageState: STORAGE_STATE.admin });

/** A one-page commercial invoice, made here so the test owns its fixture. */
async function invoicePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  const lines = [
    "COMMERCIAL INVOICE",
    "Invoice No.: INV-E2E-0001        Date: 14 March 2024",
    "Seller: Acme Coffee Exporters Ltda, Santos, Brazil",
    "Buyer: Northern Roasters BV, Rotterdam, Netherlands",
    "Description of goods: 320 bags green coffee beans",
    "Total amount: USD 78,720.00",
  ];
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 18, size: 11, font }));
  return Buffer.from(await pdf.save());
}

async function analyze(page: Page, key: string) {
  return page.request.post("/v1/documents/analyze", {
    headers: { "x-api-key": key },
    multipart: { file: { name: "invoice.pdf", mimeType: "application/pdf", buffer: await invoicePdf() } },
    timeout: 60_000,
  });
}

test("an admin issues a sandbox key, the API accepts it, and after revoking it the API refuses it", async ({ page }) => {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "API keys & members" })).toBeVisible();
  await saveScreenshot(page, "admin-keys-before");

  await page.getByRole("button", { name: "Issue API key" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Issue an API key" });
  await dialog.getByLabel("Name").fill("E2E sandbox");
  await expect(dialog.getByRole("radio", { name: /Sandbox/ })).toBeChecked();
  await saveScreenshot(page, "admin-issue-key-form");
  await dialog.getByRole("button", { name: "Issue key" }).click();

  const shown = page.getByRole("dialog", { name: "Copy your new API key" });
  await expect(shown.getByText(/Sandbox key: expires on \d{1,2} \w{3} \d{4}\./)).toBeVisible();
  const key = (await shown.getByTestId("new-api-key").textContent()) ?? "";
  expect(key).toMatch(/^ss_test_/);
  await expect(shown.getByRole("button", { name: "Copy API key" })).toBeVisible();
  await saveScreenshot(page, "admin-key-shown-once");
  await shown.getByRole("button", { name: "Done" }).click();

  const row = page.getByRole("row", { name: /E2E sandbox/ });
  await expect(row.getByText("active")).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);

  const accepted = await analyze(page, key);
  expect(accepted.status()).toBe(200);
  const splits = (await accepted.json()) as { split: { document_type: string } }[];
  expect(splits.length).toBeGreaterThan(0);
  expect(typeof splits[0]?.split.document_type).toBe("string");

  await page.reload();
  await expect(page.getByRole("row", { name: /E2E sandbox/ }).getByText("Never")).toHaveCount(0);
  await saveScreenshot(page, "admin-keys");

  await page.getByRole("row", { name: /E2E sandbox/ }).getByRole("button", { name: /Revoke/ }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke this API key?" });
  await saveScreenshot(page, "admin-revoke-confirm");
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("row", { name: /E2E sandbox/ }).getByText("revoked")).toBeVisible();

  const refused = await analyze(page, key);
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ detail: expect.stringContaining("Invalid API key") });
});

test("an admin sees the members and the audit log", async ({ page }) => {
  await page.goto("/admin/members");
  await expect(page.getByRole("row", { name: /admin-/ })).toBeVisible();
  await expect(page.getByRole("row", { name: /member-/ }).getByText("member", { exact: true })).toBeVisible();
  await saveScreenshot(page, "admin-members");

  await page.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByRole("dialog", { name: "Add a member" }).getByLabel("E-mail")).toBeFocused();
  await saveScreenshot(page, "admin-add-member");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("cell", { name: "Signed in" }).first()).toBeVisible();
  await expect(page.getByRole("row", { name: /Member added.*Operator \(command line\)/ }).first()).toBeVisible();
  await saveScreenshot(page, "admin-audit");
});
