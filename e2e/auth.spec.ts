import { expect, test } from "@playwright/test";
import { e2eAccount, STORAGE_STATE } from "./support/accounts";
import { saveScreenshot } from "./support/screenshots";
import { FIRST_RUN_SETUP_TOKEN, FIRST_RUN_URL } from "./support/servers";
import { signIn } from "./support/sign-in";

test.describe("signed out", () => {
  test("the sign-in page labels its fields and says when the password is wrong", async ({ page }) => {
    await page.goto("/signin");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await saveScreenshot(page, "signin");

    const { email } = e2eAccount("member");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill("not the right password");
    await page.getByLabel("Password").press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "incorrect" })).toHaveText("The e-mail or password is incorrect.");
    await expect(page).toHaveURL(/\/signin/);
    await saveScreenshot(page, "signin-error");
  });

  test("the app and the admin pages send a visitor to sign in", async ({ page }) => {
    for (const path of ["/", "/admin", "/admin/members"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/signin$/);
    }
  });

  test("an admin API route answers 401 without a session, whatever the headers say", async ({ request }) => {
    const response = await request.get("/api/admin/keys", { headers: { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware" } });
    expect(response.status()).toBe(401);
    expect(await response.json()).toEqual({ detail: "Sign in to continue." });
  });

  test("the first-run page does not exist once there are users", async ({ page }) => {
    const response = await page.goto("/onboarding");
    expect(response?.status()).toBe(404);
  });

  test("signing in and out", async ({ page }) => {
    await signIn(page, e2eAccount("member"));
    await expect(page.getByText(e2eAccount("member").email)).toBeVisible();
    // Plain http in tests: no Secure flag or __Host- prefix (those follow an https NEXTAUTH_URL).
    const session = (await page.context().cookies()).find((cookie) => cookie.name === "shipshape.session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(await page.evaluate(() => document.cookie)).not.toContain("shipshape.session");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/signin$/);
    // A copy of the cookie kept from before signing out is worth nothing afterwards.
    const replayed = await page.request.get("/api/sets", { headers: { cookie: `${session!.name}=${session!.value}` } });
    expect(replayed.status()).toBe(401);
    expect(await replayed.json()).toEqual({ detail: "Sign in to continue." });
  });
});

test.describe("as a member", () => {
  test.use({ storageState: STORAGE_STATE.member });

  test("the admin pages and routes are closed", async ({ page }) => {
    await page.goto("/sets");
    await expect(page.getByRole("link", { name: "API keys & members" })).toHaveCount(0);
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await saveScreenshot(page, "member-admin-404");
    const api = await page.request.get("/api/admin/keys");
    expect(api.status()).toBe(403);
  });
});

test.describe("first run, on a server with no users yet", () => {
  test.use({ baseURL: FIRST_RUN_URL });

  test("the onboarding page creates the first admin once, then disappears", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByRole("heading", { name: "Set up Shipshape" })).toBeVisible();
    await saveScreenshot(page, "onboarding");

    const founder = { email: "founder@example.test", password: "a founder's long password" };
    const create = page.getByRole("button", { name: "Create organization and administrator" });
    // Whoever reaches the server first is refused without the token npm start printed.
    await page.getByLabel("Setup token").fill("a guess at the setup token");
    await page.getByLabel("Organization name").fill("Squatters Inc");
    await page.getByLabel("Your e-mail").fill("squatter@example.test");
    await page.getByLabel("Password", { exact: true }).fill(founder.password);
    await page.getByLabel("Confirm password").fill(founder.password);
    await create.click();
    await expect(page.getByRole("alert").filter({ hasText: "setup token" })).toHaveText(
      "Enter the setup token that `npm start` printed (or the SETUP_TOKEN the operator set).",
    );
    await saveScreenshot(page, "onboarding-setup-token-refused");

    await page.getByLabel("Setup token").fill(FIRST_RUN_SETUP_TOKEN);
    await page.getByLabel("Organization name").fill("Harbour Trade Finance");
    await page.getByLabel("Your e-mail").fill(founder.email);
    await page.getByLabel("Password", { exact: true }).fill(founder.password);
    await page.getByLabel("Confirm password").fill("something else entirely");
    await page.getByRole("button", { name: "Create organization and administrator" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "match" })).toHaveText("The two passwords do not match.");
    await expect(page.getByLabel("Your e-mail")).toHaveValue(founder.email);

    await page.getByLabel("Setup token").fill(FIRST_RUN_SETUP_TOKEN);
    await page.getByLabel("Password", { exact: true }).fill(founder.password);
    await page.getByLabel("Confirm password").fill(founder.password);
    await create.click();
    await expect(page).toHaveURL(/\/signin\?created=1$/);
    await expect(page.getByText("Your organization is ready.")).toBeVisible();

    await signIn(page, founder);
    await expect(page.getByRole("link", { name: "API keys & members" })).toBeVisible();
    const again = await page.goto("/onboarding");
    expect(again?.status()).toBe(404);
  });
});
