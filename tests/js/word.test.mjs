// Word logic against office-addin-mock's OfficeMockObject: properties read before
// load + sync come back as "Error, property was not loaded", as in Office.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { OfficeMockObject } from "office-addin-mock";
import {
  SelectionChangedError,
  addCitationComments,
  applyRedraft,
  clauseKey,
  insertPrecedent,
  readSelection,
  replaceWithTracking,
} from "../../addin_server/static/taskpane/word.js";

const CLAUSE = "The Supplier's total liability shall not exceed the fees paid in the twelve months before the claim.";
const PRECEDENT = "Each party's total aggregate liability shall not exceed the fees paid and payable in the twelve months preceding the claim.";

beforeEach(() => {
  // The enum as office.js defines it; word.js reads Word.ChangeTrackingMode.trackAll.
  globalThis.Word = { ChangeTrackingMode: { off: "Off", trackAll: "TrackAll", trackMineOnly: "TrackMineOnly" } };
});

/** A range that records insertText (with the tracking mode at that moment), search and insertComment. */
function rangeSeed(name, calls, state, { text = "" } = {}) {
  return {
    text,
    insertText(value, location) {
      const trackingMode = state.root.context.document.changeTrackingMode;
      if (state.failInsert) {
        calls.push({ op: "insertText failed", trackingMode });
        throw new Error("GeneralException");
      }
      calls.push({ op: "insertText", on: name, text: value, location, trackingMode });
      return this.inserted;
    },
    inserted: {
      text: "",
      hit: {
        text: "",
        insertComment: (body) => calls.push({ op: "insertComment", on: "sentence", text: body }),
        expandTo(other) {
          calls.push({ op: "expandTo" });
          return { insertComment: (body) => calls.push({ op: "insertComment", on: "whole sentence", text: body }) };
        },
      },
      endHit: { text: "" },
      search(searchText, options) {
        calls.push({ op: "search", text: searchText, options });
        const hit = searchText.startsWith("…") ? this.endHit : this.hit;
        return { getFirstOrNullObject: () => hit };
      },
      insertComment: (body) => calls.push({ op: "insertComment", on: "clause", text: body }),
      select: () => calls.push({ op: "select" }),
    },
  };
}

/**
 * A mocked Word: a selection inside a paragraph. Returns {mock, run, calls, state}.
 * `run` has Word.run's shape and hands the batch the mock's request context.
 */
function mockWord({ selectionText, paragraphText, trackingMode = "TrackMineOnly", sentenceFound = true }) {
  const calls = [];
  const state = { root: null, failInsert: false };
  const seed = {
    context: {
      document: {
        changeTrackingMode: trackingMode,
        selection: {
          ...rangeSeed("selection", calls, state, { text: selectionText }),
          paragraphs: {
            first: rangeSeed("paragraph", calls, state, { text: paragraphText }),
            getFirst() {
              return this.first;
            },
          },
        },
        getSelection() {
          return this.selection;
        },
      },
      // The mock's sync settles nested objects over several microtasks; wait for them all.
      sync: async function () {
        await OfficeMockObject.prototype.sync.call(this);
        await new Promise((resolve) => setImmediate(resolve));
      },
    },
  };
  const mock = new OfficeMockObject(seed);
  state.root = mock;
  // isNullObject is read without load() in Office; set it directly on the search hits.
  for (const range of [mock.context.document.selection, mock.context.document.selection.paragraphs.first]) {
    range.inserted.hit.isNullObject = !sentenceFound;
    range.inserted.endHit.isNullObject = !sentenceFound;
  }
  const run = (batch) => batch(mock.context);
  return { mock, run, calls, state };
}

test("readSelection returns the selected text", async () => {
  const { run } = mockWord({ selectionText: "shall not exceed the fees", paragraphText: CLAUSE });
  assert.deepEqual(await readSelection(run), { text: "shall not exceed the fees", source: "selection" });
});

test("readSelection falls back to the paragraph at the cursor when nothing is selected", async () => {
  const { run } = mockWord({ selectionText: "", paragraphText: CLAUSE });
  assert.deepEqual(await readSelection(run), { text: CLAUSE, source: "paragraph" });
});

test("a selection of only whitespace or a paragraph mark counts as nothing selected", async () => {
  const { run } = mockWord({ selectionText: "\r", paragraphText: CLAUSE });
  assert.deepEqual(await readSelection(run), { text: CLAUSE, source: "paragraph" });
});

test("without load + sync the mock reports unloaded properties (guards the test itself)", () => {
  const { mock } = mockWord({ selectionText: "x", paragraphText: CLAUSE });
  assert.equal(mock.context.document.selection.text, "Error, property was not loaded");
});

test("insertPrecedent replaces the selection with tracking on, then restores the mode", async () => {
  const { mock, run, calls } = mockWord({ selectionText: "shall not exceed the fees", paragraphText: CLAUSE, trackingMode: "Off" });
  await insertPrecedent(run, { expectedText: "shall not exceed the fees", text: PRECEDENT });
  assert.deepEqual(calls, [
    { op: "insertText", on: "selection", text: PRECEDENT, location: "Replace", trackingMode: "TrackAll" },
    { op: "select" },
  ]);
  // Restored to the value read (after load + sync) before the change: had the code not
  // loaded it, the mock would have handed back its "not loaded" error string instead.
  assert.equal(mock.context.document.changeTrackingMode, "Off");
});

test("a whole selected paragraph is replaced as the paragraph (keeps its mark)", async () => {
  const { mock, run, calls } = mockWord({ selectionText: `${CLAUSE}\r`, paragraphText: CLAUSE, trackingMode: "TrackMineOnly" });
  const result = await insertPrecedent(run, { expectedText: CLAUSE, text: PRECEDENT });
  assert.equal(result.source, "selection");
  const insert = calls.find((c) => c.op === "insertText");
  assert.equal(insert.on, "paragraph");
  assert.equal(insert.trackingMode, "TrackAll");
  assert.equal(mock.context.document.changeTrackingMode, "TrackMineOnly");
});

test("with a cursor only, the paragraph at the cursor is replaced", async () => {
  const { run, calls } = mockWord({ selectionText: "", paragraphText: CLAUSE });
  const result = await insertPrecedent(run, { expectedText: CLAUSE, text: PRECEDENT });
  assert.equal(result.source, "paragraph");
  assert.equal(calls.find((c) => c.op === "insertText").on, "paragraph");
});

test("insertPrecedent records its source in a comment on the inserted text, then selects it", async () => {
  const { run, calls } = mockWord({ selectionText: "", paragraphText: CLAUSE });
  const result = await insertPrecedent(run, { expectedText: CLAUSE, text: PRECEDENT, comment: "Inserted from precedent: MSA, section 12.1." });
  assert.equal(result.commented, true);
  assert.deepEqual(calls.slice(1), [
    { op: "insertComment", on: "clause", text: "Inserted from precedent: MSA, section 12.1." },
    { op: "select" },
  ]);
});

test("a second Insert accepts the text the first one put in place of the clause", async () => {
  const { run, calls } = mockWord({ selectionText: "", paragraphText: PRECEDENT });
  await assert.rejects(insertPrecedent(run, { expectedText: CLAUSE, text: CLAUSE }), SelectionChangedError);
  await insertPrecedent(run, { expectedText: [CLAUSE, PRECEDENT], text: CLAUSE });
  assert.equal(calls.filter((c) => c.op === "insertText").length, 1);
});

test("insert refuses, and changes nothing, when the selection changed since Find", async () => {
  const { run, calls } = mockWord({ selectionText: "a different clause", paragraphText: CLAUSE });
  await assert.rejects(insertPrecedent(run, { expectedText: CLAUSE, text: PRECEDENT }), SelectionChangedError);
  assert.deepEqual(calls, []);
});

test("the selection check ignores paragraph marks, line breaks and spacing", () => {
  assert.equal(clauseKey("The  Supplier\r\nshall\u00a0pay.\r"), "The Supplier shall pay.");
});

test("the tracking mode is restored even when the insert fails", async () => {
  const { mock, calls, state } = mockWord({ selectionText: "x", paragraphText: CLAUSE, trackingMode: "Off" });
  state.failInsert = true;
  await assert.rejects(replaceWithTracking(mock.context, mock.context.document.selection, PRECEDENT), /GeneralException/);
  assert.deepEqual(calls, [{ op: "insertText failed", trackingMode: "TrackAll" }]);
  assert.equal(mock.context.document.changeTrackingMode, "Off");
});

const COMMENTS = [
  { marker: "[1]", text: "MSA 2021, clause 12.1", search: "Each party's total aggregate liability shall not exceed" },
  { marker: "[2]", text: "NDA, clause 7", search: "Nothing limits liability for fraud" },
];

test("applyRedraft inserts tracked, then comments anchored on the cited sentences", async () => {
  const { mock, run, calls } = mockWord({ selectionText: "shall not exceed the fees", paragraphText: CLAUSE, trackingMode: "Off" });
  const { placed } = await applyRedraft(run, { expectedText: "shall not exceed the fees", text: PRECEDENT, comments: COMMENTS });
  assert.deepEqual(placed, [
    { marker: "[1]", anchoredOn: "sentence" },
    { marker: "[2]", anchoredOn: "sentence" },
  ]);
  assert.deepEqual(
    calls.map((c) => c.op),
    ["insertText", "search", "search", "insertComment", "insertComment", "select"],
  );
  assert.equal(calls[0].trackingMode, "TrackAll");
  assert.equal(mock.context.document.changeTrackingMode, "Off");
  assert.deepEqual(calls[1], { op: "search", text: COMMENTS[0].search, options: { matchCase: true } });
  assert.deepEqual(
    calls.filter((c) => c.op === "insertComment"),
    [
      { op: "insertComment", on: "sentence", text: "MSA 2021, clause 12.1" },
      { op: "insertComment", on: "sentence", text: "NDA, clause 7" },
    ],
  );
});

test("a sentence not found in the inserted text: the comment goes on the whole clause", async () => {
  const { run, calls } = mockWord({ selectionText: "", paragraphText: CLAUSE, sentenceFound: false });
  const { placed } = await applyRedraft(run, { expectedText: CLAUSE, text: PRECEDENT, comments: COMMENTS });
  assert.deepEqual(placed.map((p) => p.anchoredOn), ["clause", "clause"]);
  assert.deepEqual(
    calls.filter((c) => c.op === "insertComment").map((c) => c.on),
    ["clause", "clause"],
  );
});

test("a comment with no search text is anchored on the clause without searching", async () => {
  const { mock, calls } = mockWord({ selectionText: "x", paragraphText: CLAUSE });
  const inserted = mock.context.document.selection.inserted;
  const placed = await addCitationComments(mock.context, inserted, [{ marker: "[1]", text: "source", search: "" }]);
  assert.deepEqual(placed, [{ marker: "[1]", anchoredOn: "clause" }]);
  assert.deepEqual(calls.map((c) => c.op), ["insertComment"]);
});

test("a sentence longer than one search is found by its start and stretched to its end", async () => {
  const { mock, calls } = mockWord({ selectionText: "x", paragraphText: CLAUSE });
  const inserted = mock.context.document.selection.inserted;
  // In this mock, search texts starting with "…" stand for sentence ends.
  const placed = await addCitationComments(mock.context, inserted, [{ marker: "[1]", text: "MSA", search: "Each party's", searchEnd: "…the claim." }]);
  assert.deepEqual(placed, [{ marker: "[1]", anchoredOn: "sentence" }]);
  assert.deepEqual(calls.map((c) => c.op), ["search", "search", "expandTo", "insertComment"]);
  assert.equal(calls.at(-1).on, "whole sentence");
});

test("applyRedraft refuses when the selection changed", async () => {
  const { run, calls } = mockWord({ selectionText: "something else", paragraphText: CLAUSE });
  await assert.rejects(applyRedraft(run, { expectedText: CLAUSE, text: PRECEDENT, comments: COMMENTS }), /selection in the document has changed/);
  assert.deepEqual(calls, []);
});
