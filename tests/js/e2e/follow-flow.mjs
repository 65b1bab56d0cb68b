// End-to-end follow-the-cursor flow for tests/e2e/test_follow_e2e.py: the real pane, served by
// the real server, in headless Chromium; only office.js is the shim (which fires Word's events).
//
//   node tests/js/e2e/follow-flow.mjs BASE_URL SCREENSHOT.png < scenario.json
//
// scenario.json: {"paragraphs": [...]}; the cursor starts in paragraph 0. Prints one JSON report.

import { readFileSync } from "node:fs";
import { openPane } from "../fixtures/harness.mjs";

const [baseUrl, screenshot] = process.argv.slice(2);
const scenario = JSON.parse(readFileSync(0, "utf8"));
const pane = await openPane({ baseUrl, width: 380, height: 1200, shimConfig: { paragraphs: scenario.paragraphs, selection: { paragraph: 0, start: 0, end: 0 } } });
const { page } = pane;
const report = {};
const state = () => page.getAttribute("#follow-bar", "data-state");
const settled = (name = "idle") => page.waitForSelector(`#follow-bar[data-state="${name}"]`, { state: "attached", timeout: 30_000 });
const move = (p) => page.evaluate((n) => window.__officeShim.moveTo(n), p);
try {
  await page.waitForSelector("#follow-bar:not([hidden])", { timeout: 30_000 });
  report.toggleOn = await page.isChecked("#follow-toggle");
  await move(1); // the cursor into a clause copied from the library
  await page.waitForSelector(".card", { timeout: 30_000 });
  await settled();
  report.rankedCards = await page.locator(".card").count();
  report.rankedStatus = await page.textContent("#status");
  await page.click("#strict-toggle"); // the same paragraph, strict
  await page.waitForSelector(".strict-match", { timeout: 30_000 });
  await settled();
  report.strictLines = await page.$$eval(".strict-match", (n) => n.map((e) => e.textContent));
  report.strictNote = await page.textContent("#rerank-note");
  await move(2); // a third cursor search: over the server's limit
  await settled("backoff");
  report.backoffState = await state();
  report.backoffLine = await page.textContent("#follow-state");
  report.sent = await page.getAttribute("#follow-bar", "data-sent");
  await page.screenshot({ path: screenshot, fullPage: true });
} catch (err) {
  report.error = String(err);
  report.state = await state().catch(() => null);
  report.line = await page.textContent("#follow-state").catch(() => null);
  await page.screenshot({ path: screenshot, fullPage: true }).catch(() => {});
} finally {
  report.pageErrors = pane.errors.map(String);
  report.strayText = await pane.strayText().catch(() => []);
  await pane.close();
}
console.log(JSON.stringify(report));
