import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test as setup } from "@playwright/test";
import { e2eAccount, STORAGE_STATE } from "./accounts";
import { signIn } from "./sign-in";

/** Signs each role in once through the real form and saves its cookies for the specs. */
for (const role of ["admin", "member"] as const) {
  setup(`sign in as ${role}`, async ({ page }) => {
    await signIn(page, e2eAccount(role));
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    mkdirSync(path.dirname(STORAGE_STATE[role]), { recursive: true });
    await page.context().storageState({ path: STORAGE_STATE[role] });
  });
}
