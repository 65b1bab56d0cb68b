// The pane's pure helpers (formatting and checks); the DOM itself is exercised in
// pane.browser.test.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { relevanceBars, rerankNote, sourceLine, starRating, truncate } from "../../addin_server/static/taskpane/render.js";
import { MAX_SELECTION_CHARS, checkQueryText, wordErrorMessage } from "../../addin_server/static/taskpane/pane.js";
import { SelectionChangedError } from "../../addin_server/static/taskpane/word.js";

test("stars only for reranked results, clamped to 1..5", () => {
  assert.equal(starRating(null), null);
  assert.equal(starRating(undefined), null);
  assert.deepEqual(starRating(4.44), { filled: 4, value: 4.44, label: "Rated 4.4 out of 5 for fit" });
  assert.equal(starRating(7).value, 5);
  assert.equal(starRating(0.2).filled, 1);
});

test("relevance bars fall with rank", () => {
  assert.deepEqual([1, 2, 3, 4, 7, 11, undefined].map((r) => relevanceBars(r).bars), [5, 4, 4, 3, 2, 1, 1]);
  assert.equal(relevanceBars(2).label, "Search match #2");
});

test("source line and rerank note", () => {
  assert.deepEqual(sourceLine({ document: "MSA", section: "12.1", heading: "Cap" }), { title: "MSA", where: "12.1 Cap" });
  assert.deepEqual(sourceLine({ file: "a.docx" }), { title: "a.docx", where: "" });
  assert.deepEqual(sourceLine(undefined), { title: "Unknown document", where: "" });
  assert.equal(rerankNote({ status: "applied" }), "");
  assert.match(rerankNote({ status: "unavailable", reason: "LLM offline" }), /AI rating is unavailable \(LLM offline\)/);
  assert.match(rerankNote({ status: "skipped" }), /^Ordered by search relevance/);
});

test("truncate cuts at a word and adds an ellipsis", () => {
  assert.equal(truncate("short  text"), "short text");
  const t = truncate("alpha beta gamma delta epsilon", 18);
  assert.equal(t, "alpha beta gamma…");
});

test("query checks: nothing selected, too long, fine", () => {
  assert.match(checkQueryText(""), /Nothing is selected/);
  assert.match(checkQueryText(" \r\n"), /Nothing is selected/);
  assert.match(checkQueryText("x".repeat(MAX_SELECTION_CHARS + 1)), /20,001 characters long.*at most 20,000/);
  assert.equal(checkQueryText("x".repeat(MAX_SELECTION_CHARS)), "");
});

test("Word failures in plain words", () => {
  assert.match(wordErrorMessage(new SelectionChangedError()), /changed since you searched/);
  assert.equal(
    wordErrorMessage(new Error("GeneralException"), "insert the precedent"),
    "Word could not insert the precedent (GeneralException). Click in the document and try again.",
  );
});

