// "Compare to our precedents" (market-view.js) in headless Chromium with the Office shim and
// canned answers: what is sent, what is drawn per state, one-click Open / Insert / go-to-paragraph.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { findChromium, launchBrowser, openPane } from "./fixtures/harness.mjs";
import { fakeApi } from "./fixtures/fake-api.mjs";
import { MARKET_DOCUMENT, MARKET_MANY, MARKET_NONE, MARKET_NOT_STATED, MARKET_ONE, NON_COMPETE } from "./fixtures/market-answers.mjs";
import { documentSummary, findingLine, marketSummary, placementLine } from "../../addin_server/static/taskpane/market-view.js";

const skip = findChromium() ? false : "Chromium not installed (apt-get install chromium, or set CHROMIUM_PATH)";
const DOC = ["10. NON-COMPETITION", NON_COMPETE, "11. GOVERNING LAW", "This Agreement is governed by the laws of Texas."];
const SELECTED = { paragraphs: DOC, selection: { paragraph: 1, start: 0, end: NON_COMPETE.length } };

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

async function withPane(answer, body) {
  const requests = [];
  const pane = await openPane({ browser, shimConfig: SELECTED, api: fakeApi({ requests, market: answer, marketDocument: MARKET_DOCUMENT }) });
  try {
    await body(pane, requests);
    assert.deepEqual(pane.errors.map(String), [], "no uncaught errors in the page");
    assert.deepEqual(await pane.strayText(), [], "no null/undefined/NaN shown");
  } finally {
    await pane.close();
  }
}

async function compare(page) {
  await page.click("#market");
  await page.waitForFunction(() => !document.getElementById("market-section").hidden);
}

test("the words of each state", () => {
  assert.equal(marketSummary(MARKET_MANY), "1 term found in your clause; compared with 44 documents (61 matching clauses).");
  assert.equal(marketSummary(MARKET_NONE), "No precedent in the library is close enough to this clause to compare its terms, so this says nothing about whether they are usual. Click Find precedent to see the nearest precedents, or clear the filters in Settings.");
  assert.equal(placementLine(MARKET_MANY.terms[0]), "Yours: 6 months — below 43, same as 1 of 44 documents.");
  assert.equal(placementLine(MARKET_NOT_STATED.terms[0]), "Not stated in your clause; 5 documents state one.");
  assert.equal(placementLine(MARKET_NONE.terms[0]), "Yours: 6 months. No matching precedent states one.");
  assert.equal(findingLine(MARKET_DOCUMENT.clauses[1].findings[0]), "Notice period: yours 60 days, above our usual 30 days in 10 of 12 documents.");
  assert.equal(findingLine(MARKET_DOCUMENT.clauses[0].findings[0]), "Carve-outs from the cap or exclusion: missing; 6 of 7 documents have it.");
  assert.equal(placementLine({ dimension: "mutuality", status: "not_read", documents: 3 }), "Who your clause binds was not read as mutual or one-sided (for example a right only one side holds); 3 documents are read one way or the other: compare it yourself.");
  assert.equal(marketSummary({}), "No precedent in the library is close enough to this clause to compare its terms, so this says nothing about whether they are usual. Click Find precedent to see the nearest precedents, or clear the filters in Settings.");
  // a clause no precedent reached is said unchecked, never counted as "in line"
  assert.equal(documentSummary(MARKET_DOCUMENT), "2 clauses of 2 compared stand out against our precedents. Click one to go to it. 1 clause had no comparable precedent and was not checked: that says nothing about it.");
  const none = { summary: { paragraphs: 5, compared: 5, stand_out: 0, with_precedent: 1, without_precedent: 4 }, clauses: [] };
  assert.equal(documentSummary(none), "None of the 1 clause compared with precedents stands out. 4 clauses had no comparable precedent and were not checked: that says nothing about them.");
  const nothing = { summary: { paragraphs: 2, compared: 2, stand_out: 0 }, clauses: [{ index: 0, documents: 0 }, { index: 1, documents: 0 }] };
  assert.match(documentSummary(nothing), /^No precedent in the library is close enough to any of the 2 clauses to compare them: nothing was checked/);
});

test("many matches: the selected clause is sent; one bar per value, counted in documents, yours marked", { skip }, async () => {
  await withPane(MARKET_MANY, async ({ page, calls }, requests) => {
    await compare(page);
    const sent = requests.find((r) => r.path === "/api/v1/market");
    assert.equal(sent.body.text, NON_COMPETE);
    const rows = await page.$$eval(".market-term:first-child .bar-row", (els) => els.map((el) => [el.querySelector(".bar-label").textContent, el.querySelector(".bar-count").textContent, el.classList.contains("yours")]));
    assert.deepEqual(rows, [["6 months (yours)", "1", true], ["12 months", "40", false], ["18 months", "1", false], ["24 months", "2", false]]);
    assert.equal(await page.textContent(".market-term:first-child .placement"), "Yours: 6 months — below 43, same as 1 of 44 documents.");
    assert.equal(await page.textContent(".market-term:first-child .badge"), "Below our usual");
    // One click on a bar lists its precedents with the figure marked; Open shows the clause; Insert replaces yours.
    await page.click(".market-term:first-child .bar-row:nth-child(4) .bar-label");
    assert.equal(await page.textContent(".bar-row:nth-child(4) .market-precedent:first-child mark"), "24 months");
    await page.click(".bar-row:nth-child(4) .market-precedent:first-child button:has-text('Open')");
    assert.ok(await page.isVisible(".bar-row:nth-child(4) .market-precedent:first-child .full-text"));
    await page.click(".bar-row:nth-child(4) .market-precedent:first-child button[data-action=insert]");
    await page.waitForFunction(() => /tracked change/.test(document.getElementById("status").textContent));
    const insert = (await calls()).find((c) => c.op === "insertText");
    assert.equal(insert.replaced, NON_COMPETE);
    assert.equal(insert.trackingMode, "TrackAll");
    assert.match(insert.text, /24 months/);
  });
});

test("one match, no match, a term your clause does not state with a missing sub-provision", { skip }, async () => {
  await withPane(MARKET_ONE, async ({ page }) => {
    await compare(page);
    assert.equal(await page.$$eval(".bar-row", (els) => els.length), 1);
    assert.equal(await page.textContent(".badge"), "Above our usual");
  });
  await withPane(MARKET_NONE, async ({ page }) => {
    await compare(page);
    assert.match(await page.textContent("#market-summary"), /No precedent in the library is close enough/);
    assert.equal(await page.$$eval(".bar-row", (els) => els.length), 0);
  });
  await withPane(MARKET_NOT_STATED, async ({ page }) => {
    await compare(page);
    assert.equal(await page.textContent(".market-term:first-child .badge"), "Not in your clause");
    // the clause caps nothing: its missing cap is said (a capped clause never is: test_market.py)
    assert.deepEqual(await page.$$eval(".sub-row.missing .bar-label", (els) => els.map((e) => e.textContent)), ["Cap on liability", "Carve-outs from the cap or exclusion"]);
    assert.match(await page.textContent(".sub-row.missing:nth-child(2) .sub-note"), /6 of 7 documents · missing from yours/);
  });
});

test("whole document: every paragraph is read and sent; each stand-out goes to its paragraph", { skip }, async () => {
  await withPane(MARKET_MANY, async ({ page, calls }, requests) => {
    await compare(page);
    await page.click("#market-document");
    await page.waitForSelector(".standout");
    const sent = requests.find((r) => r.path === "/api/v1/market/document");
    assert.deepEqual(sent.body.paragraphs.map((p) => [p.index, p.text]), DOC.map((t, i) => [i, t]));
    assert.equal(await page.$$eval(".standout", (els) => els.length), 2);
    assert.equal(await page.textContent(".unchecked .placement"), "No comparable precedent found: not checked.");
    assert.match(await page.textContent("#market-summary"), /1 clause had no comparable precedent and was not checked/);
    await page.click(".standout:nth-child(2) button.go");
    await page.waitForFunction(() => window.__officeShim.state.selection.paragraph === 2);
    assert.ok((await calls()).some((c) => c.op === "select" && c.text === DOC[2]));
  });
});
