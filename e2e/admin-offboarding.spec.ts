import { expect, test, type Browser, type Page } from "@playwright/test";
import { e2eOrganizationSlug, STORAGE_STATE } from "./support/accounts";
import { saveScreenshot } from "./support/screenshots";
import { signIn } from "./support/sign-in";

test.use({ storageState: STORAGE_STATE.admin });

const FIRST_PASSWORD = "first password, long enough";

/** A fresh browser with nobody signed in: the member's side of each step. */
async function memberBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  return context.newPage();
}

/** Opens the confirm dialog of a row action, confirms it, and waits for it to close (unless it shows something). */
async function act(admin: Page, email: string, label: string, keepOpen = false) {
  await admin.getByRole("row", { name: new RegExp(email) }).getByRole("button", { name: `${label}: ${email}` }).click();
  const dialog = admin.getByRole("dialog");
  await dialog.getByRole("button", { name: label }).click();
  if (!keepOpen) await expect(dialog).toBeHidden();
}

/** The member's next request: are they still in the app, or sent to sign in? */
async function expectSignedOut(member: Page) {
  await member.goto("/sets");
  await expect(member).toHaveURL(/\/signin$/);
}

test("an admin disables, signs out everywhere, resets the password of and removes a member, each at the member's next request", async ({ page: admin, browser }) => {
  test.setTimeout(180_000);
  const email = `offboard-${e2eOrganizationSlug()}@example.test`;
  await admin.goto("/admin/members");
  await admin.getByRole("button", { name: "Add member" }).click();
  const add = admin.getByRole("dialog", { name: "Add a member" });
  await add.getByLabel("E-mail").fill(email);
  await add.getByLabel("First password").fill(FIRST_PASSWORD);
  await add.getByRole("button", { name: "Add member" }).click();
  await expect(admin.getByRole("row", { name: new RegExp(email) }).getByText("active")).toBeVisible();
  await saveScreenshot(admin, "admin-members-actions");

  const member = await memberBrowser(browser);
  await signIn(member, { email, password: FIRST_PASSWORD });

  // Disable: the member's next click lands on the sign-in page, and signing in fails; enable lets them back.
  await act(admin, email, "Disable");
  await expect(admin.getByRole("row", { name: new RegExp(email) }).getByText("disabled")).toBeVisible();
  await expectSignedOut(member);
  await act(admin, email, "Enable");
  await signIn(member, { email, password: FIRST_PASSWORD });

  // Sign out everywhere.
  await act(admin, email, "Sign out everywhere");
  await expectSignedOut(member);
  await signIn(member, { email, password: FIRST_PASSWORD });

  // Reset: a temporary password, shown once, that only lets the member choose a new one.
  await act(admin, email, "Reset password", true);
  const shown = admin.getByRole("dialog", { name: "Pass on the temporary password" });
  const temporary = (await shown.getByTestId("temporary-password").textContent()) ?? "";
  expect(temporary.length).toBeGreaterThanOrEqual(20);
  await saveScreenshot(admin, "admin-member-password-reset");
  await shown.getByRole("button", { name: "Done" }).click();
  await expectSignedOut(member);
  await member.getByLabel("E-mail").fill(email);
  await member.getByLabel("Password", { exact: true }).fill(temporary);
  await member.getByRole("button", { name: "Sign in" }).click();
  await expect(member.getByText("Your password was reset. Choose a new password to sign in.")).toBeVisible();
  await saveScreenshot(member, "signin-choose-new-password");
  await member.getByLabel("New password", { exact: true }).fill("the member's own new password");
  await member.getByLabel("New password again").fill("the member's own new password");
  await member.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(member).not.toHaveURL(/\/signin/);

  // Remove: gone from the list, signed out at the next click, and no sign-in any more.
  await act(admin, email, "Remove");
  await expect(admin.getByRole("row", { name: new RegExp(email) })).toHaveCount(0);
  await expectSignedOut(member);
  await member.getByLabel("E-mail").fill(email);
  await member.getByLabel("Password").fill("the member's own new password");
  await member.getByRole("button", { name: "Sign in" }).click();
  await expect(member.getByRole("alert").filter({ hasText: "incorrect" })).toBeVisible();

  await admin.getByRole("link", { name: "Audit log" }).click();
  for (const action of ["Member disabled", "Member enabled", "Signed out everywhere", "Password reset", "Password changed", "Member removed"]) {
    await expect(admin.getByRole("cell", { name: action, exact: true }).first()).toBeVisible();
  }
});

test("a member changes their own password on their account page", async ({ page: admin, browser }) => {
  const email = `self-${e2eOrganizationSlug()}@example.test`;
  await admin.goto("/admin/members");
  await admin.getByRole("button", { name: "Add member" }).click();
  const add = admin.getByRole("dialog", { name: "Add a member" });
  await add.getByLabel("E-mail").fill(email);
  await add.getByLabel("First password").fill(FIRST_PASSWORD);
  await add.getByRole("button", { name: "Add member" }).click();
  await expect(add).toBeHidden();

  const member = await memberBrowser(browser);
  await signIn(member, { email, password: FIRST_PASSWORD });
  await member.getByRole("link", { name: email }).click();
  await expect(member.getByRole("heading", { name: "Your account" })).toBeVisible();
  await member.getByLabel("Current password").fill("not the password");
  await member.getByLabel("New password", { exact: true }).fill("my very own passphrase");
  await member.getByLabel("New password again").fill("my very own passphrase");
  await member.getByRole("button", { name: "Change password" }).click();
  await expect(member.getByRole("alert").filter({ hasText: "incorrect" })).toHaveText("The current password is incorrect.");
  await member.getByLabel("Current password").fill(FIRST_PASSWORD);
  await saveScreenshot(member, "account-change-password");
  await member.getByRole("button", { name: "Change password" }).click();
  await expect(member).toHaveURL(/\/signin$/);
  await signIn(member, { email, password: "my very own passphrase" });
});
