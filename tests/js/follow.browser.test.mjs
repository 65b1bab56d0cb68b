// Follow the cursor (issue 31) in headless Chromium with the Office stand-in: the lawyer types
// into a paragraph, moves the cursor and selects; the shim fires Word's events as Word does and
// the tests count what the pane sends. No timing assertions: the tests wait for the pane's
// follow state (#follow-bar data-state) and count requests.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { findChromium, launchBrowser, openPane } from "./fixtures/harness.mjs";
import { CLAUSE, RESULTS } from "./fixtures/fake-api.mjs";
import {
  CONTROL_CLAUSE, FOLLOW, HEALTH_FOLLOW, HEALTH_FOLLOW_OFF, PARAGRAPHS, TABLE_CLAUSE, TYPED, followApi, followShim,
} from "./fixtures/follow-data.mjs";
import { HEALTH } from "./fixtures/fake-api.mjs";

const skip = findChromium() ? false : "Chromium not installed (apt-get install chromium, or set CHROMIUM_PATH)";

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

async function withPane({ api = followApi(), shim = followShim(), storage = null, height = 900 } = {}, body) {
  const pane = await openPane({ browser, shimConfig: shim, api: api.handler, storage, height });
  try {
    await body(pane, api);
    assert.deepEqual(pane.errors.map(String), [], "no uncaught errors in the page");
    assert.deepEqual(await pane.strayText(), [], "no null/undefined/NaN shown");
  } finally {
    await pane.close();
  }
}

const cursorPosts = (api) => api.requests.filter((r) => r.method === "POST" && r.body?.trigger === "cursor");
const followState = (page) => page.getAttribute("#follow-bar", "data-state");
const followLine = (page) => page.textContent("#follow-state");
/** Wait until the pane has nothing pending (no pause running, no search in flight). */
const settled = (page, state = "idle") => page.waitForSelector(`#follow-bar[data-state="${state}"]`, { state: "attached" });
const shim = (page, fn, ...args) => page.evaluate(([name, values]) => window.__officeShim[name](...values), [fn, args]);

/** Type `text` one character at a time, `gap` ms apart, inside the page (no round trip per key). */
async function typeSlowly(page, text, gap = 40) {
  await page.evaluate(async ([chars, ms]) => {
    for (const ch of chars) {
      window.__officeShim.type(ch);
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
  }, [text, gap]);
}

test("typing into a paragraph: one search per pause, for the whole paragraph, as a cursor search without AI rating", { skip }, async () => {
  await withPane({}, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    assert.equal(await page.isChecked("#follow-toggle"), true, "on by default where the firm offers it");
    assert.equal(cursorPosts(api).length, 0, "nothing is sent before the lawyer moves or types");
    await typeSlowly(page, TYPED);
    await page.waitForSelector(".card");
    await settled(page);
    const events = await page.evaluate(() => window.__wordEvents);
    assert.ok(events.selection >= TYPED.length && events.paragraph >= TYPED.length, JSON.stringify(events));
    const posts = cursorPosts(api);
    assert.equal(posts.length, 1, `one search for ${TYPED.length} keystrokes`);
    assert.deepEqual(posts[0].body, { text: PARAGRAPHS[3] + TYPED, top_k: 5, rerank: false, trigger: "cursor" });
    assert.equal(await page.locator(".card").count(), RESULTS.length);
    assert.match(await page.textContent("#status"), /^3 precedents for the paragraph at the cursor\.$/);
    assert.match(await page.textContent("#query"), /paragraph at the cursor/);
    // A second edit, a second pause: a second search.
    await typeSlowly(page, " Notice shall be given in writing.");
    await page.waitForFunction(() => document.getElementById("follow-bar").dataset.sent === "2");
    await settled(page);
    assert.equal(cursorPosts(api).length, 2);
    assert.match(cursorPosts(api)[1].body.text, /Notice shall be given in writing\.$/);
  });
});

test("moving the cursor: headings, [Reserved], signature lines and short paragraphs are skipped; a paragraph is never searched twice in a row", { skip }, async () => {
  await withPane({}, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    const expectations = [
      [0, /a heading/],
      [4, /reserved or omitted/],
      [5, /signature line/],
      [3, /too short/],
    ];
    for (const [paragraph, message] of expectations) {
      await shim(page, "moveTo", paragraph);
      await page.waitForFunction((source) => new RegExp(source).test(document.getElementById("follow-state").textContent), message.source);
      await settled(page);
    }
    assert.equal(cursorPosts(api).length, 0);
    await shim(page, "moveTo", 1);
    await page.waitForSelector(".card");
    await settled(page);
    await shim(page, "moveTo", 1, 10); // the same paragraph, elsewhere in it
    await page.waitForTimeout(FOLLOW.pause_ms * 2);
    await settled(page);
    assert.equal(cursorPosts(api).length, 1);
    assert.equal(cursorPosts(api)[0].body.text, CLAUSE);
    // A table cell: the cell's paragraph, said where it is.
    await shim(page, "moveTo", 6);
    await page.waitForFunction(() => document.getElementById("follow-bar").dataset.sent === "2");
    await settled(page);
    assert.equal(cursorPosts(api)[1].body.text, TABLE_CLAUSE);
    assert.match(await page.textContent("#status"), /the paragraph at the cursor \(a table cell\)/);
    // Back to the first clause: not twice in a row, and its answer is remembered: no request.
    await shim(page, "moveTo", 1);
    await page.waitForFunction(() => /Shown again/.test(document.getElementById("follow-state").textContent));
    assert.equal(cursorPosts(api).length, 2);
    // A selection inside a paragraph: the selection is searched.
    const part = "total liability to the Customer under or in connection with this Agreement";
    await shim(page, "selectText", part);
    await page.waitForFunction(() => document.getElementById("follow-bar").dataset.sent === "3");
    await settled(page);
    assert.equal(cursorPosts(api)[2].body.text, part);
    assert.match(await page.textContent("#status"), /for your selection\./);
  });
});

test("a stale search is cancelled: the older paragraph's answer never replaces the newer one", { skip }, async () => {
  const api = followApi({ answers: (body) => (body.text === CLAUSE ? [RESULTS[2]] : [RESULTS[0], RESULTS[1]]) });
  api.holdNext = 1; // the first cursor search waits on the server
  await withPane({ api }, async ({ page }) => {
    const aborted = [];
    page.on("requestfailed", (r) => aborted.push(JSON.parse(r.postData() || "{}").text));
    await page.waitForSelector("#follow-bar:not([hidden])");
    await shim(page, "moveTo", 1);
    await page.waitForFunction(() => document.getElementById("follow-bar").dataset.state === "searching");
    await shim(page, "moveTo", 6); // the lawyer moves on while the first search is on the server
    await page.waitForFunction(() => document.getElementById("follow-bar").dataset.sent === "2");
    await page.waitForSelector(".card");
    await settled(page);
    api.release(1); // the stale answer arrives last
    await page.waitForTimeout(500); // the released answer has time to arrive (and be dropped)
    assert.deepEqual(aborted, [CLAUSE], "the first search was aborted in the page");
    assert.deepEqual(await page.$$eval(".card", (cards) => cards.map((c) => c.dataset.clauseId)), [RESULTS[0].clause_id, RESULTS[1].clause_id]);
    assert.match(await page.textContent("#status"), /table cell/);
  });
});

test("the toggle: off sends nothing and says so; the choice is remembered when the pane opens again", { skip }, async () => {
  let stored = null;
  await withPane({}, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    await page.click("#follow-toggle");
    assert.equal(await followState(page), "off");
    assert.match(await followLine(page), /off\. Select a clause and click Find precedent/);
    await typeSlowly(page, TYPED, 10);
    await shim(page, "moveTo", 1);
    await page.waitForTimeout(FOLLOW.pause_ms * 2);
    assert.equal(cursorPosts(api).length, 0);
    stored = await page.evaluate(() => window.localStorage.getItem("precedent.follow.v1"));
    assert.deepEqual(JSON.parse(stored), { on: false, strict: false, minSimilarity: null });
    // Find precedent still works.
    await page.click("#find");
    await page.waitForSelector(".card");
    assert.equal(api.requests.filter((r) => r.method === "POST").length, 1);
  });
  await withPane({ storage: { "precedent.follow.v1": stored } }, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    assert.equal(await page.isChecked("#follow-toggle"), false);
    await shim(page, "moveTo", 1);
    await page.waitForTimeout(FOLLOW.pause_ms * 2);
    assert.equal(cursorPosts(api).length, 0);
    await page.click("#follow-toggle"); // on again: searches the paragraph at the cursor
    await page.waitForSelector(".card");
    assert.equal(cursorPosts(api).length, 1);
  });
});

test("the firm-wide off switch: the toggle is greyed with the firm's reason and nothing is sent; a server refusal does the same", { skip }, async () => {
  await withPane({ api: followApi({ health: HEALTH_FOLLOW_OFF }) }, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    assert.equal(await page.isDisabled("#follow-toggle"), true);
    assert.equal(await page.isChecked("#follow-toggle"), false);
    assert.equal(await followLine(page), "Your firm has turned off suggestions as you type. Select a clause and click Find precedent.");
    await typeSlowly(page, TYPED, 10);
    await page.waitForTimeout(FOLLOW.pause_ms * 2);
    assert.equal(cursorPosts(api).length, 0);
    // Strict mode is still there for Find precedent.
    await page.click("#strict-toggle");
    await page.click("#find");
    await page.waitForSelector(".strict-match");
    const clicked = api.requests.filter((r) => r.method === "POST");
    assert.deepEqual(clicked.map((r) => [r.body.mode, r.body.trigger]), [["strict", undefined]]);
  });
  // The server turned it off after the pane opened: the first refusal turns the pane's off too.
  const api = followApi();
  api.refuse = { status: 403, code: "follow_off", message: "Your firm has turned off suggestions as you type. Select a clause and click Find precedent." };
  await withPane({ api }, async ({ page }) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    await shim(page, "moveTo", 1);
    await settled(page, "unavailable");
    assert.equal(await page.isDisabled("#follow-toggle"), true);
    await shim(page, "moveTo", 6);
    await page.waitForTimeout(FOLLOW.pause_ms * 2);
    assert.equal(cursorPosts(api).length, 1);
  });
});

test("a 429: the pane waits for Retry-After, then searches the paragraph the cursor is in by then", { skip }, async () => {
  const api = followApi();
  api.refuse = { status: 429, code: "rate_limited", retryAfter: 2 };
  await withPane({ api }, async ({ page }) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    await shim(page, "moveTo", 1);
    await settled(page, "backoff");
    assert.match(await followLine(page), /asked the pane to slow down; suggestions resume in 2 seconds\. Find precedent still works\./);
    api.refuse = null;
    await shim(page, "moveTo", 6); // moves on during the wait: nothing is sent before it ends
    await page.waitForTimeout(FOLLOW.pause_ms * 2);
    assert.equal(cursorPosts(api).length, 1);
    assert.equal(await followState(page), "backoff");
    await page.waitForSelector(".card", { timeout: 10_000 });
    await settled(page);
    assert.deepEqual(cursorPosts(api).map((r) => r.body.text), [CLAUSE, TABLE_CLAUSE]);
  });
});

test("nothing is sent while the pane is hidden; the paragraph at the cursor is searched when it shows again", { skip }, async () => {
  await withPane({}, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    const setHidden = (hidden) => page.evaluate((h) => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (h ? "hidden" : "visible") });
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);
    await setHidden(true);
    assert.equal(await followState(page), "hidden");
    await typeSlowly(page, TYPED, 10);
    await shim(page, "moveTo", 1);
    await page.waitForTimeout(FOLLOW.pause_ms * 2);
    assert.equal(cursorPosts(api).length, 0);
    await setHidden(false);
    await page.waitForSelector(".card");
    assert.deepEqual(cursorPosts(api).map((r) => r.body.text), [CLAUSE]);
  });
});

test("results are updated in place: never an empty list between two answers, the lawyer's scroll kept", { skip }, async () => {
  await withPane({ height: 420 }, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    await shim(page, "moveTo", 1);
    await page.waitForSelector(".card");
    await settled(page);
    await page.evaluate(() => {
      window.scrollTo(0, 260);
      window.__emptied = 0;
      new MutationObserver(() => {
        const list = document.getElementById("results");
        if (!list.children.length || document.getElementById("results-section").hidden) window.__emptied++;
      }).observe(document.getElementById("results-section"), { childList: true, subtree: true, attributes: true });
    });
    const where = () => page.evaluate(() => Math.round(document.getElementById("results-section").getBoundingClientRect().top));
    const before = await where();
    assert.ok(await page.evaluate(() => window.scrollY) > 200, "the pane is scrolled");
    await shim(page, "moveTo", 6);
    await page.waitForFunction(() => document.getElementById("follow-bar").dataset.sent === "2");
    await settled(page);
    assert.equal(await page.evaluate(() => window.__emptied), 0);
    const after = await where();
    assert.ok(Math.abs(after - before) <= 1, `the results did not move on screen (${before} -> ${after}, ${await page.evaluate(() => [window.scrollY, document.documentElement.scrollHeight, window.innerHeight].join(" "))})`);
    assert.equal(cursorPosts(api).length, 2);
  });
});

test("strict mode: the level is sent, identical wording is said plainly, the differences are marked, curation shown when present", { skip }, async () => {
  await withPane({}, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    await page.click("#strict-toggle");
    assert.equal(await page.inputValue("#strict-threshold"), "90");
    await shim(page, "moveTo", 1);
    await page.waitForSelector(".strict-match");
    await settled(page);
    const post = cursorPosts(api).at(-1).body;
    assert.equal(post.mode, "strict");
    assert.equal(post.min_similarity, 0.9);
    const lines = await page.$$eval(".strict-match", (n) => n.map((e) => e.textContent));
    assert.deepEqual(lines, [
      "Identical wording",
      "Nearly the same wording: 95% of the words in common, 1 change",
      "Nearly the same wording: 90% of the words in common, 2 changes",
    ]);
    assert.equal(await page.locator(".card:nth-child(1) .strict-blackline").count(), 0, "nothing to mark on an identical copy");
    assert.equal(await page.textContent(".card:nth-child(2) .strict-blackline ins"), "and payable");
    assert.deepEqual(await page.$$eval(".curation", (n) => n.map((e) => e.textContent)), ["Approved wording", "Deprecated wording"]);
    assert.match(await page.textContent("#rerank-note"), /^Same wording only: precedents with at least 90% the same words as your paragraph/);
    // The lawyer asks for the same words only: the same paragraph is searched again at 100%.
    await page.fill("#strict-threshold", "100");
    await page.dispatchEvent("#strict-threshold", "change");
    await page.waitForFunction(() => document.getElementById("follow-bar").dataset.sent === "2");
    await settled(page);
    assert.equal(cursorPosts(api).at(-1).body.min_similarity, 1);
    assert.equal(cursorPosts(api).at(-1).body.text, CLAUSE);
  });
});

test("Word on the web: a coauthor's edits send nothing; Word without paragraph events (older builds, compatibility mode) still follows", { skip }, async () => {
  await withPane({ shim: followShim({ platform: "OfficeOnline" }) }, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    assert.deepEqual(await shim(page, "handlers"), { selection: 1, paragraph: 1 });
    await shim(page, "moveTo", 1);
    await page.waitForSelector(".card");
    await settled(page);
    for (let i = 0; i < 5; i++) await shim(page, "remoteEdit", 6, `${TABLE_CLAUSE} Revised ${i}.`);
    await page.waitForTimeout(FOLLOW.pause_ms * 2);
    await settled(page);
    assert.equal(cursorPosts(api).length, 1, "the coauthor's paragraph is not the lawyer's");
  });
  const compat = followShim({ requirementSets: { WordApi: "1.4" }, compatibilityMode: "Word2010" });
  await withPane({ shim: compat }, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    assert.deepEqual(await shim(page, "handlers"), { selection: 1, paragraph: 0 });
    await typeSlowly(page, TYPED);
    await page.waitForSelector(".card");
    await settled(page);
    assert.equal(cursorPosts(api).length, 1);
  });
});

test("bad input: a 2 MB paragraph is not sent and the pane says why; a content control is named", { skip }, async () => {
  const huge = `The Supplier shall ${"perform the Services with reasonable care and skill ".repeat(40_000)}`.slice(0, 2_000_000);
  const shimConfig = followShim({ paragraphs: [...PARAGRAPHS, huge] });
  await withPane({ shim: shimConfig }, async ({ page }, api) => {
    await page.waitForSelector("#follow-bar:not([hidden])");
    await shim(page, "moveTo", PARAGRAPHS.length);
    await page.waitForFunction(() => /characters long/.test(document.getElementById("follow-state").textContent));
    assert.equal(await followLine(page), "Not searched: this paragraph is 2,000,000 characters long, more than one clause. Select the clause and click Find precedent.");
    assert.equal(cursorPosts(api).length, 0);
    await shim(page, "moveTo", 7);
    await page.waitForSelector(".card");
    await settled(page);
    assert.equal(cursorPosts(api)[0].body.text, CONTROL_CLAUSE);
    assert.match(await page.textContent("#status"), /in the content control “Governing law”/);
  });
});

test("a server that does not offer following: no toggle, nothing sent", { skip }, async () => {
  await withPane({ api: followApi({ health: HEALTH }) }, async ({ page }, api) => {
    await page.waitForSelector("html[data-pane-ready]", { state: "attached" });
    await shim(page, "moveTo", 1);
    await page.waitForTimeout(FOLLOW.pause_ms * 2);
    assert.equal(await page.isHidden("#follow-bar"), false);
    assert.equal(await page.isDisabled("#follow-toggle"), true);
    assert.match(await followLine(page), /does not offer suggestions as you type/);
    assert.equal(cursorPosts(api).length, 0);
  });
});
