// The task pane in headless Chromium, driven like a person would, with the Office host shim
// (tests/js/fixtures/office-shim.js) recording every Word call and canned server answers.
// Skipped when no Chromium is installed (apt-get install chromium).

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { findChromium, launchBrowser, openPane } from "./fixtures/harness.mjs";
import { AUTH_ENTRA, CAPITALS, CLAUSE, DOCUMENT, DOCUMENT_READING, HEALTH_NO_LLM, RESULTS, fakeApi, redraftAnswer } from "./fixtures/fake-api.mjs";

const skip = findChromium() ? false : "Chromium not installed (apt-get install chromium, or set CHROMIUM_PATH)";
const SELECTED = { paragraphs: DOCUMENT, selection: { paragraph: 1, start: 0, end: CLAUSE.length } };

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** Open the pane, run `body(pane)`, always close; fail on page errors and on stray null/undefined text. */
async function withPane(options, body) {
  const pane = await openPane({ browser, shimConfig: SELECTED, ...options });
  try {
    await body(pane);
    assert.deepEqual(pane.errors.map(String), [], "no uncaught errors in the page");
    assert.deepEqual(await pane.strayText(), [], "no null/undefined/NaN/[object Object] shown");
    assert.doesNotMatch(await pane.page.textContent("body"), /PRECEDENT_/, "no setting names shown to the lawyer");
  } finally {
    await pane.close();
  }
}

const statusText = (page) => page.textContent("#status");
const errorText = (page) => page.textContent("#error");
const posts = (requests) => requests.filter((r) => r.method === "POST");

async function find(page) {
  await page.click("#find");
  await page.waitForSelector(".card");
}

test("Find sends the selected clause and shows numbered precedents with ratings to one decimal", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page }) => {
    await find(page);
    assert.deepEqual(requests.slice(0, 3).map((r) => r.path), ["/api/v1/auth/config", "/api/v1/health", "/api/v1/facets"]);
    assert.equal(await page.locator(".card").count(), RESULTS.length);
    assert.equal(posts(requests)[0].path, "/api/v1/precedents");
    assert.deepEqual(posts(requests)[0].body, { text: CLAUSE, top_k: 5, unit: "auto" }); // a selected definition would search definitions: the server decides
    assert.deepEqual(await page.$$eval(".card-n", (n) => n.map((e) => e.textContent)), ["[1]", "[2]", "[3]"]);
    assert.equal(await page.textContent(".card:nth-child(1) .source"), "Master Services Agreement (Acme 2021) · 12.1 Cap on liability");
    // 4.4 and 3.6 no longer both read "four stars": the number and the fill differ.
    assert.equal(await page.getAttribute(".card:nth-child(1) .score", "aria-label"), "AI fit rating 4.4 out of 5");
    assert.equal(await page.textContent(".card:nth-child(2) .score-value"), "3.6");
    assert.equal(await page.getAttribute(".card:nth-child(1) .stars-on", "style"), "width: 88%");
    assert.equal(await page.getAttribute(".card:nth-child(2) .stars-on", "style"), "width: 72%");
    assert.match(await statusText(page), /3 precedents found/);
    assert.equal(await page.textContent(".card:nth-child(1) .variants"),
      "Also in 1 other document, nearly word for word: Master Services Agreement (Acme 2022) · 12.1 Cap on liability");
    assert.equal(await page.locator(".card:nth-child(2) .variants").count(), 0);
    assert.match(await page.textContent("#query"), /selected text, 27 words/);
    assert.ok(await page.isHidden("#rerank-note"));
  });
});

test("without AI rating: how the search found each result, in words, no rating-like graphic, and why", { skip }, async () => {
  await withPane({ api: fakeApi({ reranked: false }) }, async ({ page }) => {
    await find(page);
    assert.deepEqual(await page.$$eval(".score", (s) => s.map((e) => e.textContent)), ["Same words and meaning", "Same words and meaning", "Similar meaning"]);
    assert.equal(await page.getAttribute(".card:nth-child(3) .score", "title"), "Not rated by AI. Found by the meaning of your clause.");
    assert.equal(await page.locator(".stars, .bars, .bar").count(), 0);
    assert.equal(await page.textContent("#rerank-note"), "Ordered by how closely the wording matches, not rated by AI: AI rating is unavailable just now (language model offline).");
  });
});

test("a server without a drafting assistant: Redraft and AI rating disabled, saying why in plain words", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ reranked: false, health: HEALTH_NO_LLM, requests }) }, async ({ page }) => {
    await find(page);
    assert.ok(await page.isDisabled("#redraft"));
    assert.equal(await page.textContent("#redraft-unavailable"), "Redraft is not available: No drafting assistant is connected to this server. Ask IT to connect one.");
    assert.match(await page.textContent("#rerank-note"), /^Ordered by how closely the wording matches\. No drafting assistant is connected/);
    await page.click("#settings-toggle");
    assert.ok(await page.isDisabled("#s-rerank"));
    assert.match(await page.textContent("#s-rerank-hint"), /^Not available: No drafting assistant/);
    assert.equal(posts(requests).filter((r) => r.path === "/api/v1/redraft").length, 0);
  });
});

test("Insert drafts: the precedent's number, heading and capitals adapted, its source in a comment", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ capitals: true, requests }) }, async ({ page, calls }) => {
    await find(page);
    await page.click(".card:nth-child(4) button[data-action=insert]");
    await page.waitForFunction(() => /tracked change/.test(document.getElementById("status").textContent));
    const wordCalls = (await calls()).filter((c) => c.op !== "search");
    const insert = wordCalls.find((c) => c.op === "insertText");
    // The capitals kept are the terms the server read in the document (POST /document `terms`):
    // the pane reads no terms itself.
    assert.equal(insert.text, "The Supplier's total liability to the Customer under or in connection with this Agreement shall not exceed the fees paid and payable in the twelve months preceding the claim.");
    assert.deepEqual(DOCUMENT_READING.terms.slice().sort(), ["Agreement", "Customer", "Supplier"]);
    assert.deepEqual(posts(requests).filter((r) => r.path === "/api/v1/document").map((r) => r.body.paragraphs.map((p) => p.text)), [DOCUMENT]);
    assert.equal(insert.trackingMode, "TrackAll");
    assert.equal(insert.replaced, CLAUSE);
    const comment = wordCalls.find((c) => c.op === "insertComment");
    assert.equal(comment.anchorText, insert.text);
    assert.match(comment.text, /^Inserted from precedent: Standard Terms of Business \(2018\), clause 9 \(terms-2018\.docx\)\.\nBest match with your clause: “THE SUPPLIER'S TOTAL LIABILITY[^”]*”\nAdapted: dropped the precedent's number 9 and heading “LIMITATION OF LIABILITY”; changed its capitals/);
    assert.equal(wordCalls.filter((c) => c.op === "setChangeTrackingMode").at(-1).value, "Off");
    assert.match(await statusText(page), /^Inserted precedent \[4\] in place of your clause as a tracked change, with a comment recording its source\. Adapted:/);
    // The buttons say what has been done.
    assert.equal(await page.textContent(".card:nth-child(4) button[data-action=insert]"), "Inserted ✓");
    assert.ok(await page.isDisabled(".card:nth-child(4) button[data-action=insert]"));
    assert.equal(await page.textContent(".card:nth-child(2) button[data-action=insert]"), "Insert instead");
  });
});

// The case that broke the first move of the capitals to the server: Find -> Insert on a server
// that had not read the document (an older one, without /document, or one that failed). The
// pane then has no reading of the lawyer's terms: it never reads them itself, so the
// all-capitals precedent goes in as written, and the status and the comment say why.
test("Insert without the server's reading of the document: the precedent keeps its capitals, and the pane says so", { skip }, async () => {
  for (const document of [null, { ...DOCUMENT_READING, terms: undefined }]) {
    await withPane({ api: fakeApi({ capitals: true, document }) }, async ({ page, calls }) => {
      await find(page);
      await page.click(".card:nth-child(4) button[data-action=insert]");
      await page.waitForFunction(() => /tracked change/.test(document.getElementById("status").textContent));
      const wordCalls = (await calls()).filter((c) => c.op !== "search");
      const insert = wordCalls.find((c) => c.op === "insertText");
      assert.equal(insert.text, "THE SUPPLIER'S TOTAL LIABILITY TO THE CUSTOMER UNDER OR IN CONNECTION WITH THIS AGREEMENT SHALL NOT EXCEED THE FEES PAID AND PAYABLE IN THE TWELVE MONTHS PRECEDING THE CLAIM.");
      const said = "left its capitals as written: your document's defined terms could not be read, so it was not put in sentence case";
      assert.ok((await statusText(page)).includes(said), await statusText(page));
      assert.ok(wordCalls.find((c) => c.op === "insertComment").text.includes(said));
    });
  }
});

test("a second Insert replaces the first one's text instead of reporting a changed selection", { skip }, async () => {
  await withPane({ api: fakeApi() }, async ({ page, calls }) => {
    await find(page);
    await page.click(".card:nth-child(2) button[data-action=insert]");
    await page.waitForFunction(() => /Inserted precedent \[2\]/.test(document.getElementById("status").textContent));
    await page.click(".card:nth-child(3) button[data-action=insert]");
    await page.waitForFunction(() => /Inserted precedent \[3\]/.test(document.getElementById("status").textContent));
    assert.ok(await page.isHidden("#error"));
    const inserts = (await calls()).filter((c) => c.op === "insertText");
    assert.equal(inserts.length, 2);
    assert.equal(inserts[1].replaced, inserts[0].text);
    const paragraphs = await page.evaluate(() => window.__officeShim.state.paragraphs);
    assert.equal(paragraphs[1], RESULTS[2].text);
    assert.equal(await page.textContent(".card:nth-child(2) button[data-action=insert]"), "Insert instead");
  });
});

test("Insert refuses when the lawyer selected something else after Find", { skip }, async () => {
  await withPane({ api: fakeApi() }, async ({ page, calls }) => {
    await find(page);
    await page.evaluate(() => window.__officeShim.selectText("TERMINATION"));
    await page.click(".card:nth-child(1) button[data-action=insert]");
    await page.waitForSelector("#error:not([hidden])");
    assert.match(await errorText(page), /selection in the document has changed/);
    assert.deepEqual(await calls(), []);
  });
});

test("Compare on an all-capitals precedent lines up the same words and groups changes into phrases", { skip }, async () => {
  await withPane({ api: fakeApi({ capitals: true }) }, async ({ page }) => {
    await find(page);
    await page.click(".card:nth-child(4) button[data-action=compare]");
    const blackline = page.locator(".card:nth-child(4) .blackline");
    assert.equal(
      await blackline.locator(".blackline-summary").textContent(),
      "Your clause → this precedent: 3 changes (1 word removed, 7 added); 96% of your wording kept. This precedent is in capitals; capitals and spacing are ignored.",
    );
    assert.deepEqual(await blackline.locator("ins").allTextContents(), ["9. LIMITATION OF LIABILITY.", "AND PAYABLE", "PRECEDING"]);
    assert.deepEqual(await blackline.locator("del").allTextContents(), ["before"]);
    assert.equal(await page.textContent(".card:nth-child(4) button[data-action=compare]"), "Hide comparison");
  });
});

test("Show full clause: its own document's neighbours, or a note where the library has no structure", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page }) => {
    await find(page);
    await page.click(".card:nth-child(1) button.expand");
    await page.waitForSelector(".card:nth-child(1) .full .context");
    assert.match(await page.textContent(".card:nth-child(1) .full"), /12\.2 Neither party shall be liable/);
    assert.equal(requests.at(-1).path, `/api/v1/clauses/${encodeURIComponent(RESULTS[0].clause_id)}`);
    // An id with a folder and a section: the slash stays a slash, the # is escaped.
    await page.click(".card:nth-child(2) button.expand");
    await page.waitForSelector(".card:nth-child(2) .full .context");
    assert.equal(requests.at(-1).path, "/api/v1/clauses/saas/terms-2023.docx%239.2");
  });
  const clause = { clause: { ...RESULTS[1], source: { document: "ACORD corpus" } }, context: { before: [{ text: "Unrelated clause from another contract." }], after: [] }, context_available: false };
  await withPane({ api: fakeApi({ clause }) }, async ({ page }) => {
    await find(page);
    await page.click(".card:nth-child(2) button.expand");
    await page.waitForSelector(".card:nth-child(2) .full .note");
    assert.equal(await page.locator(".card:nth-child(2) .full .context").count(), 0);
    assert.doesNotMatch(await page.textContent(".card:nth-child(2) .full"), /Unrelated clause/);
  });
});

test("Redraft: citations numbered like their cards, quoted passage, flags, uncited sentence, removals, blackline", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page, calls }) => {
    await find(page);
    await page.check(".card:nth-child(1) .pick input");
    await page.check(".card:nth-child(3) .pick input");
    assert.equal(await page.textContent("#redraft"), "Redraft with 2 precedents");
    await page.fill("#instructions", "Make it mutual.");
    await page.click("#redraft");
    await page.waitForSelector("#redraft-output:not([hidden])");
    assert.deepEqual(posts(requests).filter((r) => r.path === "/api/v1/redraft").at(-1).body, { text: CLAUSE, clause_ids: [RESULTS[0].clause_id, RESULTS[2].clause_id], instructions: "Make it mutual." });
    // The server's [2] is the second precedent sent, which is card [3].
    assert.deepEqual(await page.$$eval("#redraft-text sup.marker a", (a) => a.map((e) => [e.textContent, e.getAttribute("href")])), [["[1]", "#card-1"], ["[3]", "#card-3"]]);
    const items = page.locator("#citations li");
    assert.equal(await items.count(), 2);
    assert.match(await items.nth(0).textContent(), /^\[1\] Master Services Agreement \(Acme 2021\) · 12\.1 Cap on liability \(msa-2021\.docx\) Show precedent“shall not exceed an amount equal to the fees paid/);
    assert.equal(await items.nth(0).locator(".flag").count(), 0);
    assert.equal(await items.nth(1).locator(".flag").textContent(), "⚠ Check: the precedent may not say this (the precedent does not mention fraud).");
    assert.equal(await page.getAttribute("#citations li:nth-child(2) a.to-card", "href"), "#card-3");
    assert.equal(await page.textContent("#redraft-text .uncited"), "The Customer waives all claims for lost profits.");
    assert.match(await page.textContent("#redraft-text .flagged"), /^Nothing in this Agreement limits/);
    assert.match(await page.textContent(".legend"), /1 sentence no precedent backs/);
    const problems = await page.locator(".problems li").allTextContents();
    assert.deepEqual(problems, [
      "Citation [4] was removed: names no precedent that was given.",
      "[2] SaaS Subscription Terms 2023 · 9.2 Financial cap was not used: the chosen precedents were too long to send together. Choose fewer to include it.",
    ]);
    assert.match(await page.textContent(".redraft-blackline .blackline-summary"), /^Your clause → the redraft: \d+ change/);
    // After the draft, the pane asks to conform it (this fake server has no /conform: the draft stays as written).
    await page.waitForFunction(() => /Redraft ready/.test(document.getElementById("status").textContent));
    assert.match(await statusText(page), /Redraft ready with 2 citations; check 1 flagged citation and 1 sentence without a source/);
    assert.equal((await calls()).length, 0, "nothing changes in Word before Apply");

    await page.click("#apply");
    await page.waitForFunction(() => /applied/.test(document.getElementById("status").textContent));
    const wordCalls = await calls();
    const insert = wordCalls.find((c) => c.op === "insertText");
    assert.equal(insert.trackingMode, "TrackAll");
    assert.doesNotMatch(insert.text, /\[\d\]/, "citation markers are not put into the contract");
    const comments = wordCalls.filter((c) => c.op === "insertComment");
    const answer = redraftAnswer();
    assert.deepEqual(comments.map((c) => c.text), [
      `Source: Master Services Agreement (Acme 2021), clause 12.1 (msa-2021.docx)\n“${answer.citations[0].quote.text}”`,
      `Source: Mutual NDA (standard form), clause 7 (nda-2019.docx)\n“${answer.citations[1].quote.text}”\nCheck: the precedent may not say this.`,
    ]);
    for (const c of comments) assert.doesNotMatch(c.text, /\[\d\]/, "the comment names no marker the text does not carry");
    assert.match(comments[0].anchorText, /^Subject to clause 12\.3, each party's total aggregate liability.*claim\.$/);
    assert.match(comments[1].anchorText, /^Nothing in this Agreement limits.*fraud\.$/);
    assert.equal(wordCalls.filter((c) => c.op === "setChangeTrackingMode").at(-1).value, "Off");
    assert.match(await statusText(page), /tracked change with 2 comments recording its sources/);
    assert.equal(await page.textContent("#apply"), "Applied ✓");
    assert.ok(await page.isDisabled("#apply"));
  });
});

test("facet counts over the results narrow the search in one click, and clear it again", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page }) => {
    await find(page);
    assert.equal(await page.textContent("#facet-chips summary"), "Narrow by document");
    await page.click("#facet-chips summary");
    assert.deepEqual(await page.$$eval("#facet-chips button", (b) => b.map((e) => e.textContent)), [
      "Master Services Agreement (Acme 2021) (4)", "SaaS Subscription Terms 2023 (3)", "Mutual NDA (standard form) (1)",
    ]);
    assert.equal(await page.locator("#facet-chips .chips").count(), 1, "a field with one value offers nothing to narrow");
    await page.click("#facet-chips button:has-text('SaaS Subscription Terms 2023')");
    await page.waitForFunction(() => document.querySelector("#facet-chips button.on"));
    assert.equal(await page.textContent("#facet-chips summary"), "Narrowed (1): change");
    assert.deepEqual(posts(requests).at(-1).body, { text: CLAUSE, top_k: 5, filters: { document: "SaaS Subscription Terms 2023" }, unit: "auto" });
    assert.equal(await page.getAttribute("#facet-chips button.on", "aria-pressed"), "true");
    await page.click("#facet-chips button:has-text('Any document')");
    await page.waitForFunction(() => !document.querySelector("#facet-chips button.on"));
    assert.deepEqual(posts(requests).at(-1).body, { text: CLAUSE, top_k: 5, unit: "auto" });
  });
});

test("Find more like these: the ticked results as examples; they stay first and ticked", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page }) => {
    await find(page);
    assert.ok(await page.isDisabled("#more-like"), "nothing ticked yet");
    await page.check(".card:nth-child(3) .pick input");
    await page.click("#more-like");
    await page.waitForFunction(() => /more precedent/.test(document.getElementById("status").textContent));
    assert.deepEqual(posts(requests).at(-1).body, { examples: [{ clause_id: RESULTS[2].clause_id }], top_k: 5 });
    assert.deepEqual(await page.$$eval(".card", (c) => c.map((e) => e.dataset.clauseId)), [RESULTS[2].clause_id, CAPITALS.clause_id]);
    assert.ok(await page.isChecked(".card:nth-child(1) .pick input"));
    assert.equal(await statusText(page), "1 more precedent like the 1 one you ticked.");
  });
});

test("Explore wordings: how many wordings across how many documents, each with its variants", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page }) => {
    assert.ok(await page.isDisabled("#explore"), "needs a clause first");
    await find(page);
    await page.click("#explore");
    await page.waitForSelector("#variations-section:not([hidden])");
    assert.deepEqual(posts(requests).at(-1).body, { text: CLAUSE });
    assert.equal(await page.textContent("#variations-summary"), "2 wordings across 3 documents (1 near-identical variant).");
    assert.equal(await page.locator("#variations > li").count(), 2);
    assert.match(await page.textContent("#variations > li:nth-child(1) .variants"), /^In 2 documents: Master Services Agreement \(Acme 2021\); Master Services Agreement \(Acme 2022\)$/);
    await page.click("#variations > li:nth-child(1) details summary");
    assert.deepEqual(await page.locator("#variations > li:nth-child(1) del").allTextContents(), ["twelve"]);
    assert.deepEqual(await page.locator("#variations > li:nth-child(1) ins").allTextContents(), ["12"]);
  });
  await withPane({ api: fakeApi({ variations: null }) }, async ({ page }) => {
    await find(page);
    await page.click("#explore");
    await page.waitForSelector("#error:not([hidden])");
    assert.equal(await errorText(page), "This server cannot show the library's wordings yet. Ask IT to update it.");
  });
});

test("errors in plain words: nothing selected, too long, unreachable, refused, rate limited, busy", { skip }, async () => {
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
    // Said on opening, before any click: /health could not be reached.
    assert.equal(await errorText(page), `Cannot reach the Precedent server at ${origin}. Check your connection and the server address in Settings.`);
  });
  const cases = [
    [{ status: 401, code: "unauthorized", message: "" }, "The Precedent server refused the request. Check the API token in Settings."],
    [{ status: 429, code: "rate_limited", message: "Too many requests (PRECEDENT_RATE_LIMIT).", retryAfter: 30 }, "Too many requests in a short time. Try again in 30 seconds."],
    [{ status: 400, code: "invalid_request", message: "The text is too long for one clause (PRECEDENT_MAX_TEXT_CHARS)." }, "The text is too long for one clause."],
  ];
  for (const [failWith, expected] of cases) {
    await withPane({ api: fakeApi({ failWith }) }, async ({ page }) => {
      await page.click("#find");
      await page.waitForSelector("#error:not([hidden])");
      assert.equal(await errorText(page), expected);
    });
  }
  let busy = false;
  const api = fakeApi();
  await withPane({
    api: async (route) => {
      if (busy && route.request().url().endsWith("/redraft")) {
        return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: { code: "llm_busy", message: "4 redrafts queued (PRECEDENT_LLM_MAX_CONCURRENT)." } }) });
      }
      return api(route);
    },
  }, async ({ page }) => {
    await find(page);
    busy = true;
    await page.click("#redraft");
    await page.waitForSelector("#error:not([hidden])");
    assert.equal(await errorText(page), "The drafting assistant is busy, try again in a minute.");
    assert.ok(await page.isEnabled("#redraft"), "the lawyer can try again");
  });
});

test("work-account sign-in: Word signs the add-in in (nested app auth) after one click on Sign in", { skip }, async () => {
  const requests = [];
  const shimConfig = { ...SELECTED, requirementSets: { WordApi: "1.4", NestedAppAuth: "1.1" } };
  await withPane({ api: fakeApi({ requests, auth: AUTH_ENTRA }), shimConfig, fakeMsal: true }, async ({ page }) => {
    await page.waitForSelector("#error:not([hidden])");
    assert.equal(await errorText(page), "Sign in with your work account to use Precedent. Sign in");
    assert.deepEqual(await page.evaluate(() => window.__msal.config.auth), { clientId: AUTH_ENTRA.entra.client_id, authority: AUTH_ENTRA.entra.authority });
    await page.click("#error button:has-text('Sign in')");
    await page.waitForFunction(() => /Signed in as/.test(document.getElementById("status").textContent));
    assert.equal(await statusText(page), "Signed in as jane.doe@firm.example. Click Find precedent.");
    assert.ok(await page.isHidden("#error"));
    assert.equal(await page.evaluate(() => window.__msal.popups), 1);
    await find(page);
    assert.equal(posts(requests).at(-1).headers.authorization, "Bearer tok-silent");
    assert.deepEqual(await page.evaluate(() => window.__msal.silentScopes), AUTH_ENTRA.entra.scopes);
    await page.click("#settings-toggle");
    assert.ok(await page.isHidden("#s-token-field"), "no API token field when signing in");
    assert.equal(await page.textContent("#s-account .field-hint"), "Signed in as jane.doe@firm.example.");
  });
});

test("Cancel aborts a search in flight", { skip }, async () => {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  const api = fakeApi();
  const hold = async (route) => {
    if (!route.request().url().endsWith("/precedents")) return api(route);
    await held;
    await route.abort().catch(() => {});
  };
  await withPane({ api: hold }, async ({ page }) => {
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

test("filters are pickers of the library's values; settings are remembered and used", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests }) }, async ({ page }) => {
    await page.click("#settings-toggle");
    assert.deepEqual(await page.$$eval("#s-f-document option", (o) => o.map((e) => e.textContent)), [
      "Any document", "Master Services Agreement (Acme 2021) (48)", "Mutual NDA (standard form) (17)", "SaaS Subscription Terms 2023 (35)",
    ]);
    assert.equal(await page.locator("#s-f-type").count(), 1);
    await page.fill("#s-topk", "3");
    await page.selectOption("#s-f-document", "Mutual NDA (standard form)");
    await page.uncheck("#s-rerank");
    await page.fill("#s-token", "secret-token");
    await page.click("#settings button[type=submit]");
    assert.ok(await page.isHidden("#settings"));
    await page.reload();
    await page.waitForSelector("html[data-pane-ready]", { state: "attached" });
    await page.click("#settings-toggle");
    assert.equal(await page.inputValue("#s-topk"), "3");
    assert.equal(await page.inputValue("#s-f-document"), "Mutual NDA (standard form)");
    assert.equal(await page.inputValue("#s-token"), "secret-token");
    assert.equal(await page.isChecked("#s-rerank"), false);
    await page.click("#settings-close");
    await find(page);
    assert.deepEqual(posts(requests).at(-1).body, { text: CLAUSE, top_k: 3, filters: { document: "Mutual NDA (standard form)" }, unit: "auto", rerank: false });
    assert.equal(posts(requests).at(-1).headers.authorization, "Bearer secret-token");
  });
});

test("a server that cannot list its values: filters are typed by hand", { skip }, async () => {
  const requests = [];
  await withPane({ api: fakeApi({ requests, facets: null }) }, async ({ page }) => {
    await page.click("#settings-toggle");
    assert.equal(await page.getAttribute("#s-f-document", "type"), "text");
    await page.fill("#s-f-type", "limitation");
    await page.click("#settings button[type=submit]");
    await find(page);
    assert.deepEqual(posts(requests).at(-1).body.filters, { type: "limitation" });
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
    assert.ok(await page.isDisabled(".card:nth-child(1) button[data-action=insert]"));
    assert.ok(await page.isEnabled(".card:nth-child(1) button[data-action=compare]"));
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
    await withPane({ api: fakeApi({ capitals: true }), width }, async ({ page }) => {
      await find(page);
      await page.click(".card:nth-child(4) button[data-action=compare]");
      await page.click(".card:nth-child(1) button.expand");
      await page.check(".card:nth-child(1) .pick input");
      await page.click("#redraft");
      await page.waitForSelector("#redraft-output:not([hidden])");
      await page.click(".redraft-blackline summary");
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

test("the capitals fixture really is the clause in capitals with a number and heading", () => {
  assert.match(CAPITALS.text, /^9\. LIMITATION OF LIABILITY\. THE SUPPLIER'S/);
});
