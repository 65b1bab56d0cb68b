// End-to-end flow for tests/e2e/test_addin_e2e.py: the real task pane, served by the real
// Flask server, in headless Chromium, with only office.js replaced by the host shim.
//
//   node tests/js/e2e/flow.mjs BASE_URL SCREENSHOT.png < scenario.json
//
// scenario.json: {"paragraphs": [...], "selection": {"paragraph", "start", "end"},
//                 "pick": 2, "instructions": "..."}
// Prints one JSON object: what the pane showed and every Word call the shim recorded.

import { readFileSync } from "node:fs";
import { openPane } from "../fixtures/harness.mjs";

const [baseUrl, screenshot] = process.argv.slice(2);
const scenario = JSON.parse(readFileSync(0, "utf8"));

const pane = await openPane({
  baseUrl,
  width: 380,
  height: 1400,
  shimConfig: { paragraphs: scenario.paragraphs, selection: scenario.selection },
});
const { page } = pane;
const text = (selector) => page.textContent(selector);
const report = { steps: [] };
try {
  await page.click("#find");
  await page.waitForSelector(".card", { timeout: 30_000 });
  report.cards = await page.$$eval(".card", (cards) =>
    cards.map((card) => ({
      n: card.querySelector(".card-n")?.textContent.trim(),
      source: card.querySelector(".source")?.textContent.trim(),
      score: card.querySelector(".score")?.getAttribute("aria-label"),
    })),
  );
  report.findStatus = await text("#status");
  report.rerankNote = await text("#rerank-note");
  report.wordCallsBeforeApply = (await pane.calls()).length;

  for (let n = 1; n <= scenario.pick; n += 1) await page.check(`.card:nth-child(${n}) .pick input`);
  if (scenario.instructions) await page.fill("#instructions", scenario.instructions);
  await page.click("#redraft");
  await page.waitForSelector("#redraft-output:not([hidden])", { timeout: 30_000 });
  report.citations = await page.$$eval("#citations li", (items) => items.map((li) => li.textContent.trim()));
  report.problems = await page.$$eval(".problems li", (items) => items.map((li) => li.textContent.trim()));
  report.strayText = await pane.strayText();
  report.wordCallsAfterRedraft = (await pane.calls()).length;

  await page.click("#apply");
  // A draft that failed a check (issue 32) asks once: the button then reads "Apply anyway".
  report.applyAsked = /anyway/i.test(await text("#apply"));
  if (report.applyAsked) await page.click("#apply");
  await page.waitForFunction(() => /applied/.test(document.getElementById("status").textContent), null, { timeout: 30_000 });
  report.applyStatus = await text("#status");
  report.wordCalls = await pane.calls();
  report.document = await page.evaluate(() => window.__officeShim?.document ?? null);
  await page.screenshot({ path: screenshot, fullPage: true });
} catch (err) {
  report.error = String(err);
  report.status = await text("#status").catch(() => null);
  report.errorText = await text("#error").catch(() => null);
  await page.screenshot({ path: screenshot, fullPage: true }).catch(() => {});
} finally {
  report.pageErrors = pane.errors.map(String);
  await pane.close();
}
process.stdout.write(JSON.stringify(report) + "\n");
