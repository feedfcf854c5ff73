/**
 * Debian's Chromium under playwright-core for the page's tests. A missing browser fails
 * the test that asks for one, with the install to run (never a skip: CI must not pass
 * without having looked at the page).
 */
import type { Browser } from "playwright-core";
import { chromium } from "playwright-core";
import {
  browserInstalled,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  MISSING_BROWSER,
} from "../../scripts/browser";

export async function launchBrowser(): Promise<Browser> {
  if (!browserInstalled()) throw new Error(MISSING_BROWSER);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}
