// Redraft with run-time checks, end to end: the real pane, served by the real server, in
// headless Chromium (tests/e2e/test_redraft_checks_e2e.py starts the server).
//
//   node tests/js/e2e/redraft-checks.mjs BASE_URL OUT_DIR < scenarios.json
//
// scenarios.json: [{name, paragraphs, selection, pickText: [...], instructions,
//                   askOther?: true, apply?: true}]
// For each: Find precedent, tick the cards containing each pickText, Redraft, screenshot
// OUT_DIR/<name>.png; askOther clicks "Ask the drafting assistant instead" (screenshot
// <name>-other.png); apply clicks Apply (once more if the pane asks: <name>-asks.png).
// Prints one JSON line per scenario: what the pane showed and the Word calls recorded.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launchBrowser, openPane } from "../fixtures/harness.mjs";

const [baseUrl, outDir] = process.argv.slice(2);
const scenarios = JSON.parse(readFileSync(0, "utf8"));
const browser = await launchBrowser();

const shown = (page) => page.evaluate(() => ({
  producer: document.getElementById("draft-producer")?.textContent.trim() ?? null,
  failed: [...document.querySelectorAll("#checks-failed li")].map((li) => li.textContent.trim()),
  passed: document.getElementById("checks-passed")?.textContent.trim() ?? null,
  changes: [...document.querySelectorAll("#draft-changes li")].map((li) => li.textContent.trim()),
  other: document.getElementById("ask-other")?.textContent.trim() ?? null,
  redraft: document.getElementById("redraft-text")?.textContent.trim() ?? null,
  status: document.getElementById("status").textContent.trim(),
  error: document.getElementById("error").textContent.trim(),
  apply: document.getElementById("apply").textContent.trim(),
}));

const ready = (page) => page.waitForFunction(() => /Redraft ready|failed|could not|not available|not set up/i.test(
  document.getElementById("status").textContent + document.getElementById("error").textContent), null, { timeout: 60_000 });

async function shot(page, path) {
  await page.locator("#redraft-section").evaluate((el) => el.scrollIntoView({ block: "start" }));
  await page.screenshot({ path });
}

for (const s of scenarios) {
  const pane = await openPane({ browser, baseUrl, width: 380, height: 900,
    shimConfig: { paragraphs: s.paragraphs, selection: s.selection } });
  const { page } = pane;
  const report = { name: s.name };
  try {
    await page.click("#find");
    await page.waitForSelector(".card", { timeout: 60_000 });
    for (const wanted of s.pickText || []) {
      const card = page.locator(".card", { hasText: wanted }).first();
      await card.locator(".pick input").check();
    }
    if (s.instructions) await page.fill("#instructions", s.instructions);
    await page.click("#redraft");
    await ready(page);
    report.first = await shown(page);
    await shot(page, join(outDir, `${s.name}.png`));
    if (s.askOther) {
      await page.click("#ask-other");
      await page.waitForFunction((before) => document.getElementById("draft-producer")?.textContent !== before, report.first.producer, { timeout: 60_000 });
      await ready(page);
      report.other = await shown(page);
      await shot(page, join(outDir, `${s.name}-other.png`));
    }
    if (s.apply) {
      await page.click("#apply");
      await page.waitForFunction(() => /applied|Apply anyway/.test(document.getElementById("status").textContent), null, { timeout: 30_000 });
      report.afterFirstApply = await shown(page);
      if (/Apply anyway/.test(report.afterFirstApply.status)) {
        await page.locator("#apply").evaluate((el) => el.scrollIntoView({ block: "center" }));
        await page.screenshot({ path: join(outDir, `${s.name}-asks.png`) });
        await page.click("#apply");
        await page.waitForFunction(() => /applied/.test(document.getElementById("status").textContent), null, { timeout: 30_000 });
      }
      report.applyStatus = await page.textContent("#status");
      report.wordCalls = await pane.calls();
    }
    report.strayText = await pane.strayText();
  } catch (err) {
    report.error = String(err);
    report.state = await shown(page).catch(() => null);
    await page.screenshot({ path: join(outDir, `${s.name}-error.png`), fullPage: true }).catch(() => {});
  } finally {
    report.pageErrors = pane.errors.map(String);
    await pane.close();
  }
  process.stdout.write(JSON.stringify(report) + "\n");
}
await browser.close();
