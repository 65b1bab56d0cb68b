// Conforming and the document check in the real pane (headless Chromium, the Office shim
// holding a real agreement, real /conform answers from addin_server/conform).
import assert from "node:assert/strict";
import { test } from "node:test";
import { findChromium, openPane } from "./fixtures/harness.mjs";
import { ANSWERS, PARAGRAPHS, conformApi, shimDocument } from "./fixtures/conform-screens.mjs";

const skip = findChromium() ? false : "Chromium not installed";

test("Insert sends the document once for the server to read, shows the mapping, and records every substitution", { skip }, async () => {
  const requests = [];
  const pane = await openPane({ shimConfig: shimDocument(), api: conformApi({ requests }) });
  try {
    const { page } = pane;
    await page.click("#find");
    await page.waitForSelector(".card");
    await page.click(".card:nth-child(1) button[data-action=insert]");
    await page.waitForSelector(".conform-map li[data-source=Provider]");
    // A term built on a party the text renames says so where it is listed as not defined.
    assert.match(await page.textContent(".conform-missing li[data-term='Customer Content'] .note-built"),
      /built on “Customer”, which becomes “Company” in your text; your document does not define “Company Content”/);
    // The pane reads nothing itself: it sends Word's paragraphs (text and structure only) and
    // names the document by the server's id in /conform.
    const uploads = requests.filter((r) => r.path === "/api/v1/document");
    assert.equal(uploads.length, 1);
    assert.equal(uploads[0].body.paragraphs.length, PARAGRAPHS.length);
    assert.deepEqual(Object.keys(uploads[0].body.paragraphs[0]).sort(), ["inTable", "index", "isHeading", "listString", "style", "text"]);
    const sent = requests.find((r) => r.path === "/api/v1/conform").body;
    assert.deepEqual(sent.document, { id: ANSWERS.document.id });
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
    // The edit re-ran /conform on the same document: it was not sent again.
    assert.equal(requests.filter((r) => r.path === "/api/v1/document").length, 1);
    assert.deepEqual(pane.errors, []);
  } finally {
    await pane.close();
  }
});

test("the lawyer can change any other word of the precedent, and only that word is sent", { skip }, async () => {
  const requests = [];
  const pane = await openPane({ shimConfig: shimDocument(), api: conformApi({ requests }) });
  try {
    const { page } = pane;
    await page.click("#find");
    await page.waitForSelector(".card");
    await page.click(".card:nth-child(1) button[data-action=insert]");
    await page.waitForSelector(".conform-other");
    await page.click(".conform-other summary");
    await page.fill(".conform-other .other-from", "Reservation of Rights");
    await page.fill(".conform-other .other-to", "Retained Rights");
    await page.press(".conform-other .other-to", "Tab");
    const sent = () => requests.filter((r) => r.path === "/api/v1/conform").at(-1).body.overrides;
    for (let i = 0; i < 100 && !sent(); i += 1) await new Promise((r) => setTimeout(r, 50));
    const last = sent();
    assert.equal(last["Reservation of Rights"], "Retained Rights");
    assert.deepEqual(Object.keys(last).sort(), ["Customer", "Provider", "Reservation of Rights"], "the shown rows as they stand, and the new word");
  } finally {
    await pane.close();
  }
});

test("a server that forgot the document is sent it again, once; a document too large is said plainly", { skip }, async () => {
  let requests = [];
  let pane = await openPane({ shimConfig: shimDocument(), api: conformApi({ requests, forget: true }) });
  try {
    await pane.page.click("#find");
    await pane.page.waitForSelector(".card");
    await pane.page.click(".card:nth-child(1) button[data-action=insert]");
    await pane.page.waitForSelector(".conform-map li[data-source=Provider]");
    assert.deepEqual(requests.filter((r) => r.path.startsWith("/api/v1/do") || r.path === "/api/v1/conform").map((r) => r.path),
      ["/api/v1/document", "/api/v1/conform", "/api/v1/document", "/api/v1/conform"]);
  } finally {
    await pane.close();
  }
  requests = [];
  pane = await openPane({ shimConfig: shimDocument(), api: conformApi({ requests, tooLarge: true }) });
  try {
    await pane.page.click("#find");
    await pane.page.waitForSelector(".card");
    await pane.page.click(".card:nth-child(1) button[data-action=insert]");
    await pane.page.waitForFunction(() => /1,000,000/.test(document.getElementById("error").textContent));
    assert.match(await pane.page.textContent("#error"), /Your document has 1,204,311 characters; .* Its parties and terms were not read, so the precedent was not conformed\. Use Insert as is/);
    assert.equal(requests.filter((r) => r.path === "/api/v1/conform").length, 0);
    assert.ok(await pane.page.isVisible(".card:nth-child(1) .conform button.primary"), "Insert as is is offered");
  } finally {
    await pane.close();
  }
});

test("Redraft gets the same mapping view before Apply; Apply puts in the conformed draft and a comment records every substitution", { skip }, async () => {
  const requests = [];
  const pane = await openPane({ shimConfig: shimDocument(), api: conformApi({ requests }) });
  try {
    const { page } = pane;
    await page.click("#find");
    await page.waitForSelector(".card");
    await page.check(".card:nth-child(1) .pick input");
    await page.click("#redraft");
    await page.waitForSelector(".conform-draft .conform-map li[data-source=Provider]");
    const sent = requests.filter((r) => r.path === "/api/v1/conform").at(-1).body;
    assert.match(sent.text, /Provider retains/, "the draft's text is conformed, not the precedent's");
    assert.equal(await page.locator(".conform-draft .conform-map li").count(), 2); // Provider, Customer
    assert.match(await page.textContent("#redraft-text"), /Contractor retains all right/, "the draft shown is the conformed one");
    assert.equal((await pane.calls()).filter((c) => c.op === "insertText").length, 0, "nothing changes before Apply");
    await page.fill(".conform-draft li[data-source=Provider] input.to", "Consultant");
    await page.press(".conform-draft li[data-source=Provider] input.to", "Tab");
    await page.waitForFunction(() => document.querySelector(".conform-draft li[data-source=Provider] .why")?.textContent.includes("chosen by you"));
    assert.deepEqual(requests.filter((r) => r.path === "/api/v1/conform").at(-1).body.overrides, { Provider: "Consultant", Customer: "Company" });
    await page.click("#apply");
    await page.waitForFunction(() => /Redraft applied/.test(document.getElementById("status").textContent));
    const calls = await pane.calls();
    const insert = calls.find((c) => c.op === "insertText");
    assert.equal(insert.trackingMode, "TrackAll");
    assert.match(insert.text, /^Except for .*Consultant retains all right.*\. Company retains .*Consultant may use it only to provide the Product to Company\.$/s);
    assert.ok(!insert.text.includes("[1]"));
    const comments = calls.filter((c) => c.op === "insertComment");
    const cited = comments.find((c) => /Source:/.test(c.text));
    assert.match(cited.anchorText, /^Except for .*Consultant retains/, "the citation comment still finds its (conformed) sentence");
    const record = comments.find((c) => /conformed to your document/i.test(c.text)).text;
    assert.match(record, /from .*Pilot Agreement/);
    assert.match(record, /Provider → Consultant \(2 times, your choice\), Customer → Company \(2 times, your choice\)/);
    assert.match(record, /Left as written, check: section 1\.2 \(License\)/);
    assert.match(record, /Not defined in your document: Software, Product, Customer Content/);
    assert.match(await page.textContent("#status"), /with 2 comments recording its sources\. The comment on the clause lists what was conformed/);
    assert.ok(await page.isDisabled(".conform-draft li[data-source=Provider] input.to"), "after Apply the view no longer changes the draft");
    assert.deepEqual(pane.errors, []);
  } finally {
    await pane.close();
  }
});

test("Redraft with every change unticked applies the draft as the model wrote it", { skip }, async () => {
  const requests = [];
  const pane = await openPane({ shimConfig: shimDocument(), api: conformApi({ requests }) });
  try {
    const { page } = pane;
    await page.click("#find");
    await page.waitForSelector(".card");
    await page.check(".card:nth-child(1) .pick input");
    await page.click("#redraft");
    await page.waitForSelector(".conform-draft .conform-map li[data-source=Provider]");
    // Both unticked, then one change event: the view sends both choices (the fake answers per request).
    await page.evaluate(() => { for (const box of document.querySelectorAll(".conform-draft .conform-map input[type=checkbox]")) box.checked = false; });
    await page.dispatchEvent(".conform-draft li[data-source=Customer] input[type=checkbox]", "change");
    await page.waitForFunction(() => document.querySelector(".conform-draft li[data-source=Provider] .why")?.textContent.includes("left as"));
    await page.waitForFunction(() => !document.getElementById("apply").disabled);
    assert.deepEqual(requests.filter((r) => r.path === "/api/v1/conform").at(-1).body.overrides, { Provider: "", Customer: "" });
    assert.equal(await page.locator(".conform-draft .conform-map li").count(), 2, "an unticked change stays in the list");
    // What the lawyer reads is what Apply puts in: the draft as written, no longer the conformed wording.
    await page.waitForFunction(() => /Provider retains/.test(document.getElementById("redraft-text").textContent));
    await page.click("#apply");
    await page.waitForFunction(() => /Redraft applied/.test(document.getElementById("status").textContent));
    const calls = await pane.calls();
    assert.match(calls.find((c) => c.op === "insertText").text, /^Except for .*Provider retains all right.*\. Customer retains/s);
    const record = calls.filter((c) => c.op === "insertComment").map((c) => c.text).join("\n");
    assert.ok(!/→/.test(record), "no substitution is recorded when none was made");
  } finally {
    await pane.close();
  }
});

test("Check document lists planted errors, and a click selects the paragraph", { skip }, async () => {
  const planted = PARAGRAPHS.map((q) => (q.listString === "9.3" ? { ...q, text: q.text.replace("Contractor may not assign", "Except under Section 14.2, Contractor may not assign") } : q));
  const requests = [];
  const pane = await openPane({ shimConfig: shimDocument(planted), api: conformApi({ requests }) });
  try {
    const { page } = pane;
    await page.click("#check");
    await page.waitForSelector(".check-group[data-kind=missing-section]");
    // The server reads and checks the document (one reader of terms): the pane sends it and shows the findings.
    assert.match(JSON.stringify(requests.find((r) => r.path === "/api/v1/document").body), /Except under Section 14\.2/);
    assert.deepEqual(requests.find((r) => r.path === "/api/v1/document/check").body, { document: { id: ANSWERS.document.id } });
    await page.click(".check-group[data-kind=missing-section] .check-item");
    await page.waitForFunction(() => window.__wordCalls.some((c) => c.op === "select"));
    const select = (await pane.calls()).find((c) => c.op === "select");
    assert.match(select.text, /Section 14\.2/);
    assert.equal(await page.locator(".check-group").count(), 1 + (await page.locator(".check-group[data-kind=undefined]").count()));
  } finally {
    await pane.close();
  }
});
