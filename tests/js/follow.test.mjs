// The rules of follow-the-cursor without a browser: what is skipped, how long to wait after a
// refusal, what is remembered, and how a strict match is said (follow-rules.js, strict-view.js).

import assert from "node:assert/strict";
import { test } from "node:test";
import { backoffMs, createFollowStore, headingTexts, skipReason } from "../../addin_server/static/taskpane/follow-rules.js";
import { DOCUMENT_READING } from "./fixtures/fake-api.mjs";
import { PARAGRAPHS } from "./fixtures/follow-data.mjs";
import { curationStatus, matchLine, strictNote } from "../../addin_server/static/taskpane/strict-view.js";

const CLAUSE = "Either party may terminate this Agreement on thirty days' written notice to the other.";

test("paragraphs too short to mean anything are skipped, clauses are not", () => {
  const cases = {
    "": "empty",
    "   \u00a0 ": "empty",
    "12. LIMITATION OF LIABILITY": "heading",
    "ARTICLE 7 CONFIDENTIALITY AND NON-DISCLOSURE OBLIGATIONS": "heading",
    "14. [Reserved]": "reserved",
    "Reserved.": "reserved",
    "(c) Intentionally omitted.": "reserved",
    "By: ______________________": "signature",
    "Name: Jane Smith": "signature",
    "[Signature page follows]": "signature",
    "The Supplier shall": "short",
    [CLAUSE]: "",
    // A lawyer mid-sentence, no full stop yet: still a clause.
    "The Supplier shall indemnify the Customer against all losses arising from": "",
  };
  // The headings in capitals as the server read them (the document's reading): the pane reads no capitals.
  const headings = new Set(["12. LIMITATION OF LIABILITY", "ARTICLE 7 CONFIDENTIALITY AND NON-DISCLOSURE OBLIGATIONS"]);
  for (const [text, reason] of Object.entries(cases)) assert.equal(skipReason({ text }, { headings }), reason, JSON.stringify(text));
  // Without the server's reading a short heading is too short, and a long one in capitals is searched.
  assert.equal(skipReason({ text: "12. LIMITATION OF LIABILITY" }), "short");
  assert.equal(skipReason({ text: "12. LIMITATION OF LIABILITY AND EXCLUSION OF CERTAIN DAMAGES" }), "");
  assert.equal(skipReason({ text: CLAUSE, style: "Heading 2" }), "heading");
  assert.equal(skipReason({ text: "x ".repeat(1_000_000) }), "too long");
  assert.equal(skipReason({ text: "Either party may terminate this Agreement" }, { minWords: 4 }), "");
});

test("the headings skipped are those the server's reading of the document names, as texts of the paragraphs sent", () => {
  // The fake server's canned reading (the real reader's, document-reading.json) names
  // "12. LIMITATION OF LIABILITY"; the follow tests' document has it at the same place.
  const sent = PARAGRAPHS.map((text, index) => ({ index, text }));
  assert.deepEqual([...headingTexts(DOCUMENT_READING, sent)], ["12. LIMITATION OF LIABILITY"]);
  assert.deepEqual([...headingTexts({ headings: [1] }, [{ index: 0, text: "A" }, { index: 1, text: " B  C " }])], ["B C"]);
  assert.equal(headingTexts(null, sent).size, 0);
});

test("after a 429 the wait is the server's Retry-After; other failures double from 2 s, capped", () => {
  assert.equal(backoffMs({ status: 429, retryAfter: 7 }, 1), 7000);
  assert.equal(backoffMs({ status: 429, retryAfter: 0 }, 1), 2000);
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffMs({ status: 0 }, n)), [2000, 4000, 8000, 16000]);
  assert.equal(backoffMs({ status: 503 }, 20), 120_000);
});

test("the lawyer's choices are kept in storage; bad or missing storage falls back to the defaults", () => {
  const data = new Map();
  const storage = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, v) };
  const store = createFollowStore(storage);
  assert.deepEqual(store.load(), { on: null, strict: false, minSimilarity: null });
  store.save({ on: false, strict: true, minSimilarity: 0.95, junk: 1 });
  assert.deepEqual(createFollowStore(storage).load(), { on: false, strict: true, minSimilarity: 0.95 });
  data.set("precedent.follow.v1", "{not json");
  assert.deepEqual(createFollowStore(storage).load(), { on: null, strict: false, minSimilarity: null });
  const blocked = createFollowStore({ getItem() { throw new Error("denied"); }, setItem() { throw new Error("denied"); } });
  assert.deepEqual(blocked.save({ on: true }), { on: true, strict: false, minSimilarity: null });
});

test("a strict match is said plainly; curation is read whatever its shape", () => {
  assert.equal(matchLine({ similarity: 1, identical: true }, { stats: { changes: 0 } }).text, "Identical wording");
  assert.equal(matchLine({ similarity: 1, identical: true }, { stats: { changes: 1 } }).text, "Identical words; punctuation or capitals differ");
  assert.equal(matchLine({ similarity: 0.999, identical: false }, { stats: { changes: 1 } }).text, "Nearly the same wording: 99% of the words in common, 1 change");
  assert.equal(matchLine(null, null), null);
  assert.equal(curationStatus({ curation: { status: "Approved" } }), "approved");
  assert.equal(curationStatus({ curation: "deprecated" }), "deprecated");
  assert.equal(curationStatus({ curation: { status: "draft" } }), "");
  assert.match(strictNote(1, 0), /^No precedent uses the same words as your paragraph/);
  assert.match(strictNote(0.85, 2), /at least 85% the same words/);
});
