// The redraft report (issue 32): failed checks in a lawyer's words, the operation's edits with
// reasons, the other producer, the Word comment with the reasons, and Apply asking once on a
// failed draft. Pure functions in node; the pane itself in Chromium.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { readFileSync } from "node:fs";
import { failedChecks, instructionParts, operationComments, partsLine, uncheckedChecks } from "../../addin_server/static/taskpane/draft-report.js";
import { readyMessage } from "../../addin_server/static/taskpane/redraft-flow.js";
import { findChromium, launchBrowser, openPane } from "./fixtures/harness.mjs";
import { CLAUSE, DOCUMENT, fakeApi, redraftAnswer } from "./fixtures/fake-api.mjs";

const FAILED = {
  ...redraftAnswer(),
  producer: { kind: "model", label: "Drafting assistant", reason: "Written by the drafting assistant (language model).", alternative: "operation" },
  checks: [
    { name: "changed", passed: false, reason: "The draft is the same as your clause word for word: the instruction was not carried out." },
    { name: "instruction", passed: false, reason: "The draft still binds only the Supplier." },
    { name: "length", passed: null, reason: "No length was asked for." },
  ],
  changes: [],
  notes: [],
};
const OPERATION = {
  ...redraftAnswer(),
  redraft: "Neither party shall be liable to the other party for any loss.",
  citations: [], comments: [], flagged: [], uncited_sentences: [], removed_markers: [], citation_problems: [],
  producer: { kind: "operation", operation: "make_mutual", label: "Made mutual", reason: "Made mutual by a drafting operation.", alternative: null },
  checks: [{ name: "instruction", passed: true, reason: "ok" }],
  changes: [{ start: 0, end: 12, old: "The Supplier", new: "Neither party", reason: "binds both parties instead of only the Supplier" }],
  notes: ["<b>not html</b>"],
};

test("failed checks and the ready message say what failed", () => {
  assert.deepEqual(failedChecks(FAILED).map((f) => f.name), ["changed", "instruction"]);
  assert.match(readyMessage(FAILED), /failed 2 checks/);
  assert.deepEqual(failedChecks({ redraft: "x" }), []); // an older server: nothing to report
});

test("a check that could not read the draft is said not checked, never counted as passed or failed", () => {
  const answer = { checks: [
    { name: "instruction", passed: null, status: "not_checked", reason: "Done: mutual. Not checked (read it): 3 years." },
    { name: "length", passed: null, status: "not_applicable", reason: "No length was asked for." },
    { name: "meaning", passed: true, status: "passed", reason: "ok" },
  ] };
  assert.deepEqual(uncheckedChecks(answer).map((c) => [c.name, c.label]), [["instruction", "Does what you asked"]]);
  assert.deepEqual(failedChecks(answer), []);
  assert.equal(readyMessage(answer), "Redraft ready with 0 citations. 1 check could not be made: read it in the report. "
    + "Review it, then Apply to put it in the document.");
  assert.doesNotMatch(readyMessage(answer), /check \d+ check/);
  // An older server sends no status: nothing is said not checked that it did not say.
  assert.deepEqual(uncheckedChecks({ checks: [{ name: "length", passed: null, reason: "n/a" }] }), []);
});

test("each part of the instruction is said: done, not done and why, by whom (the server's own answers)", () => {
  const quickstart = JSON.parse(readFileSync(new URL("./fixtures/redraft-mutual-quickstart.json", import.meta.url), "utf8"));
  assert.equal(partsLine(quickstart), "Done: mutual.");
  const { answer } = JSON.parse(readFileSync(new URL("./fixtures/redraft-parts.json", import.meta.url), "utf8"));
  assert.equal(partsLine(answer), "Done: mutual. Not done: 3 years.");
  const [mutual, period] = instructionParts(answer);
  assert.equal(mutual.by, "drafting operation");
  assert.equal(period.status, "not_done");
  assert.equal(period.by, "");
  assert.match(period.reason, /not set up on this server/);
  assert.deepEqual(instructionParts({ redraft: "x" }), []); // an older server sends no parts
  assert.equal(partsLine({ parts: [{ label: "plain English", status: "unchecked" }] }), "Not checked (read it): plain English.");
});

test("the Word comment carries the operation's reasons, on the changed sentence", () => {
  const [comment] = operationComments(OPERATION, OPERATION.redraft);
  assert.match(comment.text, /^Made mutual by a drafting operation \(no language model\): binds both parties/);
  assert.ok(comment.search.startsWith("Neither party"));
  assert.deepEqual(operationComments(FAILED, FAILED.redraft), []);
  // The redraft's sentences as the server read them (`redraft_sentences`, offsets into `redraft`,
  // from tests/reading: sentence_spans): "Section 3.5" does not end a sentence, and the marker
  // is left out as Apply leaves it out.
  const redraft = "The fees under Section 3.5 are due monthly [1]. Neither party shall be liable to the other party for any loss.";
  const read = { ...OPERATION, redraft, citations: [{ marker: "[1]", n: 1 }], redraft_sentences: [[0, 47], [48, 110]] };
  const [anchored] = operationComments(read, "The fees under Section 3.5 are due monthly. Neither party shall be liable to the other party for any loss.");
  assert.equal(anchored.search, "Neither party shall be liable to the other party for any loss.");
  const unchanged = { ...read, changes: [{ ...OPERATION.changes[0], new: "nothing like it" }] };
  assert.equal(operationComments(unchanged, "x").at(0).search, "The fees under Section 3.5 are due monthly.");
});

const skip = findChromium() ? false : "Chromium not installed";
const SELECTED = { paragraphs: DOCUMENT, selection: { paragraph: 1, start: 0, end: CLAUSE.length } };
let browser;
before(async () => { if (!skip) browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

async function redraftWith(answer) {
  const requests = [];
  const pane = await openPane({ browser, shimConfig: SELECTED, api: fakeApi({ redraft: answer, requests }) });
  await pane.page.click("#find");
  await pane.page.waitForSelector(".card");
  await pane.page.fill("#instructions", "Make this mutual");
  await pane.page.click("#redraft");
  await pane.page.waitForSelector("#redraft-output:not([hidden])");
  return { pane, requests };
}

test("a failed draft: the checks' reasons before Apply, Apply asks once, the other producer is asked for", { skip }, async () => {
  const { pane, requests } = await redraftWith(FAILED);
  const { page } = pane;
  try {
    assert.match(await page.textContent("#checks-failed"), /The draft still binds only the Supplier\./);
    await page.click("#apply");
    assert.equal(await page.textContent("#apply"), "Apply anyway");
    assert.match(await page.textContent("#status"), /failed 2 checks/);
    assert.equal((await pane.calls()).filter((c) => c.op === "insertText").length, 0, "nothing applied on the first click");
    await page.click("#apply");
    await page.waitForFunction(() => /applied/.test(document.getElementById("status").textContent));
    assert.equal((await pane.calls()).filter((c) => c.op === "insertText").length, 1);
    await page.click("#ask-other");
    await page.waitForFunction(() => /Redraft ready/.test(document.getElementById("status").textContent));
    const bodies = requests.filter((r) => r.path === "/api/v1/redraft").map((r) => (typeof r.body === "string" ? JSON.parse(r.body) : r.body));
    assert.equal(bodies.length, 2);
    assert.equal(bodies[0].producer, undefined); // "auto" is the server's default
    assert.equal(bodies[1].producer, "operation");
    assert.deepEqual(await pane.strayText(), []);
  } finally {
    await pane.close();
  }
});

test("an operation's draft: its edits with reasons, applied at once, notes shown as text", { skip }, async () => {
  const { pane } = await redraftWith(OPERATION);
  const { page } = pane;
  try {
    assert.match(await page.textContent("#draft-producer"), /Drafting operation/);
    assert.match(await page.textContent("#draft-changes"), /The Supplier → Neither party: binds both parties/);
    assert.equal(await page.$("#ask-other"), null);
    assert.equal(await page.$(".draft-notes b"), null);
    await page.click("#apply");
    await page.waitForFunction(() => /applied/.test(document.getElementById("status").textContent));
    const comments = (await pane.calls()).filter((c) => c.op === "insertComment").map((c) => c.text);
    assert.ok(comments.some((t) => /drafting operation/.test(t)), JSON.stringify(comments));
  } finally {
    await pane.close();
  }
});

test("a draft some checks could not read: said not checked, no 'Passed' line that counts them", { skip }, async () => {
  const UNREAD = {
    ...OPERATION,
    checks: [
      { name: "changed", passed: true, status: "passed", reason: "The draft changes your clause." },
      { name: "instruction", passed: null, status: "not_checked", reason: "Done: mutual. Not checked (read it): 3 years." },
      { name: "meaning", passed: null, status: "not_checked", reason: "Not checked: the draft rewords your clause." },
      { name: "length", passed: null, status: "not_applicable", reason: "No length was asked for." },
    ],
  };
  const { pane } = await redraftWith(UNREAD);
  const { page } = pane;
  try {
    const said = await page.textContent("#checks-unchecked");
    assert.match(said, /Not checked \(read the draft for these\): 2 checks/);
    assert.match(said, /Does what you asked: Done: mutual\. Not checked \(read it\): 3 years\./);
    assert.doesNotMatch(said, /Length as asked/);
    assert.equal(await page.$("#checks-failed"), null);
    assert.doesNotMatch(await page.textContent("#checks-passed"), /✓|Does what you asked/);
    assert.deepEqual(await pane.strayText(), []);
  } finally {
    await pane.close();
  }
});
