// The task pane in headless Chromium, driven like a person would, with the Office host shim
// (tests/js/fixtures/office-shim.js) recording every Word call and canned server answers.
// Skipped when no Chromium is installed (apt-get install chromium).

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { findChromium, launchBrowser, openPane } from "./fixtures/harness.mjs";
import { CLAUSE, DOCUMENT, RESULTS, fakeApi, redraftAnswer } from "./fixtures/fake-api.mjs";

const skip = findChromium() ? false : "Chromium not installed (apt-get install chromium, or set CHROMIUM_PATH)";
const SELECTED = { paragraphs: DOCUMENT, selection: { paragraph: 1, start: 0, end: CLAUSE.length } };

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** Open the pane, run `body(pane)`, always close; fail on any uncaught page error. */
async function withPane(options, body) {
  const pane = await openPane({ browser, shimConfig: SELECTED, ...options });
  try {
    await body(pane);
    assert.deepEqual(pane.errors.map(String), [], "no uncaught errors in the page");
  } finally {
    await pane.close();
  }
}

const statusText = (page) => page.textContent("#status");
const errorText = (page) => page.textContent("#error");

async function find(page) {
  await page.click("#find");
  await page.waitForSelector(".card");
}

test("Find sends the selected clause and shows ranked precedents with stars", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page }) => {
    await find(page);
    assert.equal(await page.locator(".card").count(), RESULTS.length);
    assert.equal(requests[0].path, "/api/v1/precedents");
    assert.deepEqual(requests[0].body, { text: CLAUSE, top_k: 5 });
    assert.match(await page.textContent(".card:nth-child(1) .source"), /Master Services Agreement \(Acme 2021\) · 12\.1 Cap on liability/);
    assert.equal(await page.getAttribute(".card:nth-child(1) .score", "aria-label"), "Rated 4.4 out of 5 for fit");
    assert.match(await statusText(page), /3 precedents found/);
    assert.equal(await page.textContent(".card:nth-child(1) .variants"),
      "Also in 1 other document, nearly word for word: Master Services Agreement (Acme 2022) · 12.1 Cap on liability");
    assert.equal(await page.locator(".card:nth-child(2) .variants").count(), 0);
    assert.match(await page.textContent("#query"), /selected text, 27 words/);
  });
});

test("without AI rating, results show a relevance indicator and a note", { skip }, async () => {
  await withPane({ api: fakeApi({ reranked: false }) }, async ({ page }) => {
    await find(page);
    assert.equal(await page.locator(".score.relevance").count(), 3);
    assert.match(await page.textContent("#rerank-note"), /AI rating is unavailable \(language model offline\)/);
  });
});

test("Insert replaces the clause as a tracked change and restores tracking", { skip }, async () => {
  await withPane({ api: fakeApi() }, async ({ page, calls }) => {
    await find(page);
    await page.click(".card:nth-child(2) .actions button:has-text('Insert')");
    await page.waitForFunction(() => /tracked change/.test(document.getElementById("status").textContent));
    const wordCalls = (await calls()).filter((c) => c.op !== "search");
    assert.deepEqual(wordCalls, [
      { op: "setChangeTrackingMode", value: "TrackAll" },
      { op: "insertText", text: RESULTS[1].text, location: "Replace", replaced: CLAUSE, trackingMode: "TrackAll" },
      { op: "setChangeTrackingMode", value: "Off" },
    ]);
    const paragraphs = await page.evaluate(() => window.__officeShim.state.paragraphs);
    assert.equal(paragraphs[1], RESULTS[1].text);
  });
});

test("Insert refuses when the selection changed after Find", { skip }, async () => {
  await withPane({ api: fakeApi() }, async ({ page, calls }) => {
    await find(page);
    await page.evaluate(() => window.__officeShim.selectText("TERMINATION"));
    await page.click(".card:nth-child(1) .actions button:has-text('Insert')");
    await page.waitForSelector("#error:not([hidden])");
    assert.match(await errorText(page), /selection in the document has changed/);
    assert.deepEqual(await calls(), []);
  });
});

test("Compare shows a word-level blackline; Show full clause loads the context", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page }) => {
    await find(page);
    await page.click(".card:nth-child(1) .actions button:has-text('Compare')");
    const blackline = page.locator(".card:nth-child(1) .blackline");
    assert.ok(await blackline.isVisible());
    assert.ok((await blackline.locator("ins").count()) > 0);
    assert.ok((await blackline.locator("del").count()) > 0);
    assert.match(await blackline.locator("del").first().textContent(), /^The Supplier's$/);
    await page.click(".card:nth-child(1) button.link");
    await page.waitForSelector(".card:nth-child(1) .full .context");
    assert.match(await page.textContent(".card:nth-child(1) .full"), /12\.2 Neither party shall be liable/);
    assert.equal(requests.at(-1).path, `/api/v1/clauses/${encodeURIComponent(RESULTS[0].clause_id)}`);
  });
});

test("Redraft with chosen precedents, then Apply: tracked insert and comments on sentences", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page, calls }) => {
    await find(page);
    await page.check(".card:nth-child(1) .pick input");
    await page.check(".card:nth-child(3) .pick input");
    assert.equal(await page.textContent("#redraft"), "Redraft with 2 precedents");
    await page.fill("#instructions", "Make it mutual.");
    await page.click("#redraft");
    await page.waitForSelector("#redraft-output:not([hidden])");
    assert.deepEqual(requests.at(-1).body, { text: CLAUSE, clause_ids: [RESULTS[0].clause_id, RESULTS[2].clause_id], instructions: "Make it mutual." });
    assert.equal(await page.locator("#citations li").count(), 2);
    assert.equal(await calls().then((c) => c.length), 0, "nothing changes in Word before Apply");

    await page.click("#apply");
    await page.waitForFunction(() => /applied/.test(document.getElementById("status").textContent));
    const wordCalls = await calls();
    const answer = redraftAnswer();
    const insert = wordCalls.find((c) => c.op === "insertText");
    assert.equal(insert.trackingMode, "TrackAll");
    assert.equal(insert.location, "Replace");
    assert.doesNotMatch(insert.text, /\[\d\]/, "citation markers are not put into the contract");
    const comments = wordCalls.filter((c) => c.op === "insertComment");
    assert.deepEqual(
      comments.map((c) => c.text),
      answer.comments.map((c) => c.text),
    );
    assert.match(comments[0].anchorText, /^Subject to clause 12\.3, each party's total aggregate liability.*claim\.$/);
    assert.match(comments[1].anchorText, /^Nothing in this Agreement limits.*fraud\.$/);
    assert.equal(wordCalls.filter((c) => c.op === "setChangeTrackingMode").at(-1).value, "Off");
    assert.match(await statusText(page), /tracked change with 2 comments/);
  });
});

test("errors in plain words: nothing selected, too long, unreachable, server message", { skip }, async () => {
  await withPane({ api: fakeApi(), shimConfig: { paragraphs: [""], selection: { paragraph: 0, start: 0, end: 0 } } }, async ({ page }) => {
    await page.click("#find");
    await page.waitForSelector("#error:not([hidden])");
    assert.match(await errorText(page), /Nothing is selected/);
  });
  const long = "word ".repeat(4100);
  await withPane({ api: fakeApi(), shimConfig: { paragraphs: [long], selection: { paragraph: 0, start: 0, end: long.length } } }, async ({ page }) => {
    await page.click("#find");
    await page.waitForSelector("#error:not([hidden])");
    assert.match(await errorText(page), /20,499 characters long/);
  });
  await withPane({ api: (route) => route.abort("connectionrefused") }, async ({ page, origin }) => {
    await page.click("#find");
    await page.waitForSelector("#error:not([hidden])");
    assert.equal(await errorText(page), `Cannot reach the Precedent server at ${origin}. Check your connection and the server address in Settings.`);
  });
  await withPane({ api: fakeApi({ failWith: { status: 400, code: "invalid_request", message: "The text is too long for one clause." } }) }, async ({ page }) => {
    await page.click("#find");
    await page.waitForSelector("#error:not([hidden])");
    assert.equal(await errorText(page), "The text is too long for one clause.");
  });
});

test("Cancel aborts a search in flight", { skip }, async () => {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await withPane({ api: async (route) => { await held; await route.abort().catch(() => {}); } }, async ({ page }) => {
    await page.click("#find");
    await page.waitForSelector("#cancel:not([hidden])");
    assert.ok(await page.isDisabled("#find"), "Find is disabled while searching");
    await page.click("#cancel");
    await page.waitForFunction(() => document.getElementById("status").textContent === "Cancelled.");
    assert.ok(await page.isHidden("#cancel"));
    assert.ok(await page.isEnabled("#find"));
    release();
  });
});

test("settings are remembered across a reload and used for requests", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page }) => {
    await page.click("#settings-toggle");
    await page.fill("#s-topk", "3");
    await page.fill("#s-document", "MSA 2021");
    await page.fill("#s-token", "secret-token");
    await page.click("#settings button[type=submit]");
    assert.ok(await page.isHidden("#settings"));
    await page.reload();
    await page.waitForSelector("html[data-pane-ready]", { state: "attached" });
    await page.click("#settings-toggle");
    assert.equal(await page.inputValue("#s-topk"), "3");
    assert.equal(await page.inputValue("#s-token"), "secret-token");
    await page.click("#settings-close");
    await find(page);
    assert.deepEqual(requests.at(-1).body, { text: CLAUSE, top_k: 3, filters: { document: "MSA 2021" } });
    assert.equal(requests.at(-1).headers.authorization, "Bearer secret-token");
  });
});

test("an http server address for a remote host is refused in Settings", { skip }, async () => {
  await withPane({ api: fakeApi() }, async ({ page }) => {
    await page.click("#settings-toggle");
    await page.fill("#s-server", "http://precedent.example.com");
    await page.click("#settings button[type=submit]");
    assert.match(await page.textContent("#settings-error"), /https/);
    assert.ok(await page.isVisible("#settings"));
  });
});

test("older Word (no WordApi 1.4): a clear message and Insert/Apply disabled", { skip }, async () => {
  await withPane({ api: fakeApi(), shimConfig: { ...SELECTED, requirementSets: { WordApi: "1.3" } } }, async ({ page }) => {
    assert.match(await page.textContent("#host-message"), /cannot insert tracked changes or comments/);
    await find(page);
    assert.ok(await page.isDisabled(".card:nth-child(1) .actions button:has-text('Insert')"));
    assert.ok(await page.isEnabled(".card:nth-child(1) .actions button:has-text('Compare')"));
  });
});

test("outside Word: the pane says where it works", { skip }, async () => {
  await withPane({ api: fakeApi(), shimConfig: { ...SELECTED, host: null } }, async ({ page }) => {
    assert.match(await page.textContent("#host-message"), /works inside Microsoft Word/);
    assert.ok(await page.isDisabled("#find"));
  });
});

for (const width of [320, 450]) {
  test(`no horizontal scrolling at ${width} px with results, blackline and redraft open`, { skip }, async () => {
    await withPane({ api: fakeApi(), width }, async ({ page }) => {
      await find(page);
      await page.click(".card:nth-child(1) .actions button:has-text('Compare')");
      await page.click(".card:nth-child(1) button.link");
      await page.click("#redraft");
      await page.waitForSelector("#redraft-output:not([hidden])");
      const { scroll, client } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px pane`);
    });
  });
}

test("keyboard: Tab reaches Find and Enter runs it", { skip }, async () => {
  await withPane({ api: fakeApi() }, async ({ page }) => {
    for (let i = 0; i < 5 && (await page.evaluate(() => document.activeElement?.id)) !== "find"; i++) {
      await page.keyboard.press("Tab");
    }
    assert.equal(await page.evaluate(() => document.activeElement?.id), "find");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".card");
  });
});
