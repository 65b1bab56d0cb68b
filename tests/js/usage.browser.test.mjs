// Usage feedback and curation in the pane (issue 27), in headless Chromium: what each card
// action sends (ids, ranks and places; never text), the marks on cards, and the knowledge
// team's form. Skipped when no Chromium is installed.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { findChromium, launchBrowser, openPane } from "./fixtures/harness.mjs";
import { CLAUSE, DOCUMENT, RESULTS } from "./fixtures/fake-api.mjs";
import { HEALTH_CURATOR, LIST_ID, usageApi } from "./fixtures/usage-api.mjs";
import { feedbackEvent } from "../../addin_server/static/taskpane/usage.js";

const skip = findChromium() ? false : "Chromium not installed";
const SELECTED = { paragraphs: DOCUMENT, selection: { paragraph: 1, start: 0, end: CLAUSE.length } };
let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

async function withPane(options, body) {
  const pane = await openPane({ browser, shimConfig: SELECTED, ...options });
  try {
    await body(pane);
    assert.deepEqual(pane.errors.map(String), []);
    assert.deepEqual(await pane.strayText(), []);
  } finally {
    await pane.close();
  }
}

const feedbackPosts = (requests) => requests.filter((r) => r.path === "/api/v1/feedback").map((r) => r.body);
const until = async (check) => {
  for (let i = 0; i < 50 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
};

test("an event names the list, the clause, its rank and place; nothing else", () => {
  assert.deepEqual(feedbackEvent("insert", RESULTS, RESULTS[1].clause_id), { kind: "insert", clause_id: RESULTS[1].clause_id, rank: 2, position: 2 });
  assert.deepEqual(feedbackEvent("not_relevant", RESULTS, RESULTS[0].clause_id, "outdated").reason, "outdated");
  assert.equal(feedbackEvent("copy", RESULTS, "not-on-the-list"), null);
});

test("card actions send usage events without clause or query text", { skip }, async () => {
  const requests = [];
  await withPane({ api: usageApi({ requests }) }, async ({ page }) => {
    await page.click("#find");
    await page.waitForSelector(".card");
    await page.click(".card:nth-child(2) button[data-action=insert]");
    await page.waitForFunction(() => /Inserted precedent/.test(document.getElementById("status").textContent));
    await page.click(".card:nth-child(1) button[data-action=compare]");
    await page.click(".card:nth-child(1) button[data-action=compare]"); // closing says nothing more
    await page.click(".card:nth-child(1) button[data-action=compare]");
    await page.click(".card:nth-child(3) button[data-action=not-relevant]");
    await page.selectOption(".card:nth-child(3) .usage-reason", "outdated");
    await page.click(".card:nth-child(3) button[data-action=not-relevant]");
    await page.click(".card:nth-child(1) button[data-action=thumbs-up]");
    await until(() => feedbackPosts(requests).length >= 4);
    const posts = feedbackPosts(requests);
    assert.deepEqual(posts.map((p) => p.list_id), Array(4).fill(LIST_ID));
    assert.deepEqual(posts.map((p) => p.events[0]), [
      { kind: "insert", clause_id: RESULTS[1].clause_id, rank: 2, position: 2 },
      { kind: "compare", clause_id: RESULTS[0].clause_id, rank: 1, position: 1 },
      { kind: "not_relevant", clause_id: RESULTS[2].clause_id, rank: 3, position: 3, reason: "outdated" },
      { kind: "thumbs_up", clause_id: RESULTS[0].clause_id, rank: 1, position: 1 },
    ]);
    const sent = JSON.stringify(posts);
    assert.ok(!sent.includes(CLAUSE.slice(0, 30)) && !RESULTS.some((r) => sent.includes(r.text.slice(0, 30))));
    assert.match(await page.textContent(".card:nth-child(3) .usage"), /Noted: not relevant/);
  });
});

test("marks show on the cards; a failing feedback service never bothers the lawyer", { skip }, async () => {
  await withPane({ api: usageApi({ failFeedback: true }) }, async ({ page }) => {
    await page.click("#find");
    await page.waitForSelector(".card");
    assert.equal((await page.textContent(".card:nth-child(1) .curation")).trim(), "✓ Approved by Knowledge, 2026-11");
    assert.equal((await page.textContent(".card:nth-child(3) .curation")).trim(), "⚠ Deprecated: use 7.2 of the 2026 MSA (the whole document)");
    assert.equal(await page.locator(".curate").count(), 0, "no curation form for lawyers");
    await page.click(".card:nth-child(1) button[data-action=copy]");
    await page.waitForFunction(() => /copied/.test(document.getElementById("status").textContent));
    assert.equal((await page.textContent("#error")).trim(), "");
  });
});

test("the knowledge team marks a clause from its card", { skip }, async () => {
  const requests = [];
  await withPane({ api: usageApi({ requests, health: HEALTH_CURATOR }) }, async ({ page }) => {
    await page.click("#find");
    await page.waitForSelector(".card .curate");
    await page.click(".card:nth-child(2) .curate summary");
    await page.selectOption(".card:nth-child(2) select[name=status]", "deprecated");
    await page.fill(".card:nth-child(2) input[name=replacement]", "9.4 of the 2026 SaaS terms");
    await page.click(".card:nth-child(2) .curation-form button[type=submit]");
    await page.waitForSelector(".card:nth-child(2) .curation");
    assert.match(await page.textContent(".card:nth-child(2) .curation"), /Deprecated: use 9\.4 of the 2026 SaaS terms/);
    const post = requests.find((r) => r.path === "/api/v1/curation").body;
    assert.deepEqual(post, { clause_id: RESULTS[1].clause_id, status: "deprecated", scope: "clause", reason: "", replacement: "9.4 of the 2026 SaaS terms" });
  });
});
