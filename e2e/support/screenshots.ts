import path from "node:path";
import type { Page } from "@playwright/test";
import { SCREENSHOT_DIR } from "./accounts";

/** Saves a full-page screenshot as test-results/screenshots/<name>.png for people to look at. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: "disabled" });
}
