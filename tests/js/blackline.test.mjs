import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_CELLS, diffStats, diffWords, mergeSegments, tokenize } from "../../addin_server/static/taskpane/blackline.js";

const original = (segments) => segments.filter((s) => s.type !== "insert").map((s) => s.text).join("");
const revised = (segments) => segments.filter((s) => s.type !== "delete").map((s) => s.text).join("");

test("tokenize keeps words, punctuation and the spacing before them", () => {
  assert.deepEqual(tokenize("The Supplier's  fee, net."), [
    { lead: "", text: "The" },
    { lead: " ", text: "Supplier's" },
    { lead: "  ", text: "fee" },
    { lead: "", text: "," },
    { lead: " ", text: "net" },
    { lead: "", text: "." },
  ]);
  assert.deepEqual(tokenize("a "), [{ lead: "", text: "a" }, { lead: " ", text: "" }]);
  assert.deepEqual(tokenize(""), []);
});

test("identical texts are one equal segment", () => {
  assert.deepEqual(diffWords("Fees are payable.", "Fees are payable."), [{ type: "equal", text: "Fees are payable." }]);
});

test("a changed word is deleted then inserted, the rest equal", () => {
  const segments = diffWords("The Supplier shall pay the fees.", "The Customer shall pay the fees.");
  assert.deepEqual(segments, [
    { type: "equal", text: "The" },
    { type: "delete", text: " Supplier" },
    { type: "insert", text: " Customer" },
    { type: "equal", text: " shall pay the fees." },
  ]);
});

test("pure insertions and deletions", () => {
  assert.deepEqual(diffWords("pay the fees", "pay all the fees"), [
    { type: "equal", text: "pay" },
    { type: "insert", text: " all" },
    { type: "equal", text: " the fees" },
  ]);
  assert.deepEqual(diffWords("pay all the fees", "pay the fees"), [
    { type: "equal", text: "pay" },
    { type: "delete", text: " all" },
    { type: "equal", text: " the fees" },
  ]);
  assert.deepEqual(diffWords("", "New clause."), [{ type: "insert", text: "New clause." }]);
  assert.deepEqual(diffWords("Old clause.", ""), [{ type: "delete", text: "Old clause." }]);
});

test("whitespace differences alone are not changes", () => {
  const segments = diffWords("shall  not\nexceed", "shall not exceed");
  assert.deepEqual(segments, [{ type: "equal", text: "shall not exceed" }]);
});

test("segments spell both texts (up to spacing) and stats count words", () => {
  const a = "Each party's total liability shall not exceed the fees paid in the twelve months before the claim.";
  const b = "Subject to clause 12.3, each party's aggregate liability shall not exceed 125% of the fees paid in the Contract Year.";
  const segments = diffWords(a, b);
  assert.equal(revised(segments), b);
  assert.equal(original(segments).replace(/\s+/g, " "), a);
  for (let i = 1; i < segments.length; i++) {
    assert.notEqual(segments[i].type, segments[i - 1].type, "adjacent segments are merged");
  }
  const stats = diffStats(segments);
  assert.ok(stats.inserted > 0 && stats.deleted > 0);
  assert.deepEqual(diffStats(diffWords("a b c", "a x c")), { inserted: 1, deleted: 1 });
});

test("the LCS keeps the longest run of common words", () => {
  const segments = diffWords("A B C D E", "B C X D E");
  const equal = segments.filter((s) => s.type === "equal").map((s) => s.text.trim());
  assert.deepEqual(equal, ["B C", "D E"]);
});

test("very long texts fall back to sentence-level then word-level diff", () => {
  const sentence = (i) => `Clause ${i} applies to the services described in schedule ${i}.`;
  const a = Array.from({ length: 400 }, (_, i) => sentence(i)).join(" ");
  const b = a.replace(sentence(200), "Clause 200 does not apply to the services in schedule 200.");
  const started = Date.now();
  const segments = diffWords(a, b, { maxCells: 10_000 });
  assert.ok(Date.now() - started < 2000);
  assert.equal(revised(segments), b);
  const changed = segments.filter((s) => s.type !== "equal").map((s) => `${s.type}:${s.text.trim()}`);
  // Word level within the one changed sentence, not the whole sentence replaced.
  assert.deepEqual(changed, ["delete:applies", "insert:does not apply", "delete:described"]);
  assert.ok(MAX_CELLS >= 1_000_000);
});

test("mergeSegments joins runs and orders deletions first", () => {
  assert.deepEqual(
    mergeSegments([
      { type: "equal", text: "a" },
      { type: "insert", text: " x" },
      { type: "delete", text: " b" },
      { type: "delete", text: " c" },
      { type: "equal", text: " d" },
      { type: "equal", text: " e" },
    ]),
    [
      { type: "equal", text: "a" },
      { type: "delete", text: " b c" },
      { type: "insert", text: " x" },
      { type: "equal", text: " d e" },
    ],
  );
});
