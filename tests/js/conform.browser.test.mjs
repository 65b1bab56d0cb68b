// Conforming and the document check in the real pane (headless Chromium, the Office shim
// holding a real agreement, real /conform answers from addin_server/conform).
import assert from "node:assert/strict";
import { test } from "node:test";
import { findChromium, openPane } from "./fixtures/harness.mjs";
import { PARAGRAPHS, conformApi, shimDocument } from "./fixtures/conform-screens.mjs";

const skip = findChromium() ? false : "Chromium not installed";

test("Insert shows the mapping, sends only definitions, headings and numbers, and records every substitution", { skip }, async () => {
  const requests = [];
  const pane = await openPane({ shimConfig: shimDocument(), api: conformApi({ requests }) });
  try {
    const { page } = pane;
    await page.click("#find");
    await page.waitForSelector(".card");
    await page.click(".card:nth-child(1) button[data-action=insert]");
    await page.waitForSelector(".conform-map li[data-source=Provider]");
    const sent = requests.find((r) => r.path === "/api/v1/conform").body;
    assert.deepEqual(Object.keys(sent.document).sort(), ["definitions", "parties", "reference_word", "sections", "truncated"]);
    const body = PARAGRAPHS.find((p) => p.listString === "1.2").text; // a clause defining nothing
    assert.ok(!JSON.stringify(sent).includes(body.slice(30, 90)), "the document's text is not sent");
    await page.fill(".conform-map li[data-source=Provider] input.to", "Consultant");
    await page.press(".conform-map li[data-source=Provider] input.to", "Tab"); // change fires when the field is left
    await page.waitForFunction(() => document.querySelector(".conform-map li[data-source=Provider] .why")?.textContent.includes("chosen by you"));
    assert.deepEqual(requests.filter((r) => r.path === "/api/v1/conform").at(-1).body.overrides, { Provider: "Consultant", Customer: "Company" });
    await page.click(".card:nth-child(1) button[data-action=insert-conformed]");
    await page.waitForFunction(() => /Inserted precedent/.test(document.getElementById("status").textContent));
    const calls = await pane.calls();
    const insert = calls.find((c) => c.op === "insertText");
    assert.equal(insert.trackingMode, "TrackAll");
    assert.match(insert.text, /Consultant retains all right/);
    const comment = calls.find((c) => c.op === "insertComment").text;
    assert.match(comment, /Provider → Consultant \(1 time, your choice\)/);
    assert.match(comment, /left as written, check: section 1\.2 \(License\), section 1\.4 \(Customer Content\)/);
    assert.match(comment, /not defined in your document: Software, Product, Customer Content/);
    assert.deepEqual(pane.errors, []);
  } finally {
    await pane.close();
  }
});

test("Check document lists planted errors, and a click selects the paragraph", { skip }, async () => {
  const planted = PARAGRAPHS.map((q) => (q.listString === "9.3" ? { ...q, text: q.text.replace("Contractor may not assign", "Except under Section 14.2, Contractor may not assign") } : q));
  const pane = await openPane({ shimConfig: shimDocument(planted), api: conformApi() });
  try {
    const { page } = pane;
    await page.click("#check");
    await page.waitForSelector(".check-group[data-kind=missing-section]");
    await page.click(".check-group[data-kind=missing-section] .check-item");
    await page.waitForFunction(() => window.__wordCalls.some((c) => c.op === "select"));
    const select = (await pane.calls()).find((c) => c.op === "select");
    assert.match(select.text, /Section 14\.2/);
    assert.equal(await page.locator(".check-group").count(), 1 + (await page.locator(".check-group[data-kind=undefined]").count()));
  } finally {
    await pane.close();
  }
});
