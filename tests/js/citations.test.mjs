import assert from "node:assert/strict";
import { test } from "node:test";
import { WORD_SEARCH_LIMIT, commentText, prepareRedraft, searchPrefix, searchSuffix, splitMarkers, stripMarkers } from "../../addin_server/static/taskpane/citations.js";

test("stripMarkers removes the listed markers and the space before them", () => {
  assert.equal(stripMarkers("Fees are capped [1]. Fraud is not [2].", ["[1]", "[2]"]), "Fees are capped. Fraud is not.");
  assert.equal(stripMarkers("Capped [1][2], mutual [1], [2].", ["[1]", "[2]"]), "Capped, mutual.");
  assert.equal(stripMarkers("Schedule [3] applies [1].", ["[1]"]), "Schedule [3] applies.", "unlisted brackets stay");
  assert.equal(stripMarkers("No markers.", []), "No markers.");
});

test("searchPrefix: first line, at most 255 characters, cut at a word, ^ escaped", () => {
  assert.equal(searchPrefix("  The Supplier shall pay.  "), "The Supplier shall pay.");
  assert.equal(searchPrefix("First line\nsecond line"), "First line");
  const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
  const prefix = searchPrefix(long);
  assert.ok(prefix.length <= WORD_SEARCH_LIMIT, `length ${prefix.length}`);
  assert.ok(long.startsWith(prefix));
  assert.match(prefix, /word\d+$/, "ends on a whole word");
  assert.equal(searchPrefix("2^10 units"), "2^^10 units");
  const carets = "^".repeat(300);
  assert.ok(searchPrefix(carets).length <= WORD_SEARCH_LIMIT);
  assert.equal(searchPrefix(""), "");
});

test("searchSuffix: only for sentences the prefix cannot cover", () => {
  assert.equal(searchSuffix("A short sentence."), "");
  const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
  const suffix = searchSuffix(long);
  assert.ok(suffix.length <= WORD_SEARCH_LIMIT && suffix.length > 200);
  assert.ok(long.endsWith(suffix));
  assert.match(suffix, /^word\d+ /, "starts on a whole word");
  assert.equal(searchSuffix("First line\nsecond line"), "second line");
});

test("prepareRedraft: text without markers, comments with search text from the sentence", () => {
  const redraft = "Liability is capped at the fees paid in twelve months [1]. Fraud is never excluded [2].";
  const answer = {
    redraft,
    citations: [
      { marker: "[1]", n: 1, clause_id: "a", source: {} },
      { marker: "[2]", n: 2, clause_id: "b", source: {} },
    ],
    comments: [
      { marker: "[1]", clause_id: "a", start: 0, end: 58, sentence: redraft.slice(0, 58), text: " MSA, clause 12.1 " },
      { marker: "[2]", clause_id: "b", start: 59, end: redraft.length, text: "NDA, clause 7" },
      { marker: "[3]", clause_id: "c", start: 0, end: 1, sentence: "x", text: "" },
    ],
    removed_markers: ["[4]"],
  };
  const prepared = prepareRedraft(answer);
  assert.equal(prepared.text, "Liability is capped at the fees paid in twelve months. Fraud is never excluded.");
  assert.deepEqual(prepared.comments, [
    { marker: "[1]", clauseId: "a", text: "Source: MSA, clause 12.1", search: "Liability is capped at the fees paid in twelve months.", searchEnd: "" },
    // No sentence given: cut from the redraft by its offsets.
    { marker: "[2]", clauseId: "b", text: "Source: NDA, clause 7", search: "Fraud is never excluded.", searchEnd: "" },
  ]);
  for (const c of prepared.comments) assert.ok(prepared.text.includes(c.search), "each search text is in the inserted text");
});

test("comment text agrees with the inserted text: the source, the quoted passage, the flag, never a [n]", () => {
  const redraft = "Fees are capped [1]. Fraud is never excluded [2].";
  const answer = {
    redraft,
    citations: [
      { marker: "[1]", n: 1, clause_id: "a", source: { citation: "MSA, section 12.1 (Cap)", file: "MSA.docx" }, quote: { text: "capped at the fees", start: 4, end: 22 } },
      { marker: "[2]", n: 2, clause_id: "b", source: { document: "NDA", section: "7" } },
    ],
    comments: [
      { marker: "[1]", clause_id: "a", start: 0, end: 20, text: "Precedent [1]: MSA, section 12.1 (Cap)\n“capped at the fees”", flag: null },
      { marker: "[2]", clause_id: "b", start: 21, end: redraft.length, text: "Precedent [2]: NDA, section 7\n“fraud is excluded”" },
    ],
    flagged: [{ n: 2, clause_id: "b", start: 21, end: redraft.length, sentence: "Fraud is never excluded [2].", score: 0.2 }],
  };
  const [first, second] = prepareRedraft(answer).comments.map((c) => c.text);
  assert.equal(first, "Source: MSA, section 12.1 (Cap) (MSA.docx)\n“capped at the fees”");
  assert.equal(second, "Source: NDA, 7\n“fraud is excluded”\nCheck: the precedent may not say this.");
  for (const text of [first, second]) assert.doesNotMatch(text, /\[\d+\]/);
  // Without a source, the server's text loses its marker.
  assert.equal(commentText({ citations: [] }, { marker: "[3]", text: "Precedent [3]: Lease, clause 4\n“rent is due”" }), "Source: Lease, clause 4\n“rent is due”");
});

test("prepareRedraft copes with a bare answer", () => {
  assert.deepEqual(prepareRedraft({ redraft: "Plain." }), { text: "Plain.", comments: [] });
  assert.deepEqual(prepareRedraft(null), { text: "", comments: [] });
});

test("splitMarkers separates markers for display", () => {
  assert.deepEqual(splitMarkers("Capped [1]. Fraud [2]"), [
    { type: "text", text: "Capped " },
    { type: "marker", text: "[1]" },
    { type: "text", text: ". Fraud " },
    { type: "marker", text: "[2]" },
  ]);
});
