import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { capitalsOnly, compareTexts, groupPhrases, alignTokens, tokenize } from "../../addin_server/static/taskpane/blackline.js";
import { readingOf } from "./fixtures/fake-api.mjs";
import { VERSION } from "../../addin_server/static/taskpane/vendor/diff.js";
import { VENDORED, vendoredText } from "../../scripts/vendor.mjs";

const seg = (text) => compareTexts(text[0], text[1]).segments;
const revised = (segments) => segments.filter((s) => s.type !== "delete").map((s) => s.text).join("");
const original = (segments) => segments.filter((s) => s.type !== "insert").map((s) => s.text).join("");

test("the vendored jsdiff is the installed package, unmodified", () => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url)));
  assert.equal(pkg.devDependencies.diff, VERSION);
  assert.equal(readFileSync(VENDORED, "utf8"), vendoredText(), "run npm run vendor");
});

test("tokenize keeps words, punctuation and the spacing before them; keys ignore case, quotes, dashes", () => {
  assert.deepEqual(tokenize("The Supplier’s  fee, net."), [
    { lead: "", text: "The", key: "the" },
    { lead: " ", text: "Supplier’s", key: "supplier's" },
    { lead: "  ", text: "fee", key: "fee" },
    { lead: "", text: ",", key: "," },
    { lead: " ", text: "net", key: "net" },
    { lead: "", text: ".", key: "." },
  ]);
  assert.deepEqual(tokenize("a "), [{ lead: "", text: "a", key: "a" }, { lead: " ", text: "", key: "" }]);
  assert.deepEqual(tokenize(""), []);
  assert.equal(tokenize("—")[0].key, tokenize("-")[0].key);
});

test("identical texts, and texts differing only in capitals or spacing, have no changes", () => {
  const same = compareTexts("Fees are payable.", "Fees are payable.");
  assert.deepEqual(same.segments, [{ type: "equal", text: "Fees are payable." }]);
  assert.equal(same.summary, "Same wording as your clause. Capitals and spacing are ignored.");
  // Whether the precedent is in capitals and the lawyer's clause not is the server's reading.
  const [ours, theirs] = ["The fees are payable within thirty days.", "THE  FEES ARE\nPAYABLE WITHIN THIRTY DAYS."];
  const caps = compareTexts(ours, theirs, { capitals: capitalsOnly(readingOf(theirs), readingOf(ours)) });
  assert.equal(caps.stats.changes, 0);
  assert.match(caps.summary, /^Same wording as your clause\. This precedent is in capitals/);
  // Without it (an older server) the summary says nothing of capitals but that they are ignored.
  assert.equal(compareTexts(ours, theirs).summary, "Same wording as your clause. Capitals and spacing are ignored.");
});

test("a changed word is deleted then inserted, the rest equal, shown as the precedent spells it", () => {
  assert.deepEqual(seg(["The Supplier shall pay the fees.", "THE CUSTOMER SHALL PAY THE FEES."]), [
    { type: "equal", text: "THE" },
    { type: "delete", text: " Supplier" },
    { type: "insert", text: " CUSTOMER" },
    { type: "equal", text: " SHALL PAY THE FEES." },
  ]);
});

test("changes one word apart are one phrase, not alternating fragments", () => {
  const a = "The Supplier shall not exceed the fees paid.";
  const b = "The Supplier is limited to an amount equal to the fees paid.";
  const { segments, stats } = compareTexts(a, b);
  assert.equal(stats.changes, 1);
  assert.deepEqual(segments.filter((s) => s.type !== "equal").map((s) => s.text), [" shall not exceed", " is limited to an amount equal to"]);
  // Without grouping the same texts make more, smaller changes.
  const ungrouped = groupPhrases(alignTokens(tokenize(a), tokenize(b)), 0).filter((g) => g.type === "change").length;
  assert.ok(ungrouped >= stats.changes);
});

test("segments spell both texts (up to spacing and capitals) and the summary counts words", () => {
  const a = "Each party's total liability shall not exceed the fees paid in the twelve months before the claim.";
  const b = "Subject to clause 12.3, each party's aggregate liability shall not exceed 125% of the fees paid in the Contract Year.";
  const { segments, stats, summary } = compareTexts(a, b);
  assert.equal(revised(segments), b);
  assert.equal(original(segments).toLowerCase().replace(/\s+/g, " ").trim(), a.toLowerCase());
  assert.equal(stats.total, 17);
  assert.match(summary, /^Your clause → this precedent: \d+ changes \(\d+ words removed, \d+ added\); \d+% of your wording kept\. Capitals and spacing are ignored\.$/);
});

test("pure insertions, deletions and empty texts", () => {
  assert.deepEqual(seg(["pay the fees", "pay all the fees"]), [
    { type: "equal", text: "pay" },
    { type: "insert", text: " all" },
    { type: "equal", text: " the fees" },
  ]);
  assert.deepEqual(seg(["", "New clause."]), [{ type: "insert", text: "New clause." }]);
  assert.deepEqual(seg(["Old clause.", ""]), [{ type: "delete", text: "Old clause." }]);
});

test("unrelated long texts are not aligned word by word: the edit length is bounded", () => {
  // What keeps this fast is the bound (MAX_EDIT_LENGTH), so the test checks the bound, not a clock
  // (a wall-clock limit failed on a loaded CI machine).
  const around = (word, n) => [...Array.from({ length: n }, (_, i) => `${word}${i}`), "shared",
    ...Array.from({ length: n }, (_, i) => `${word}x${i}`)].join(" ");
  // Within the bound the one shared word is aligned; past it the texts are one deletion and one insertion.
  assert.ok(alignTokens(tokenize(around("alpha", 100)), tokenize(around("beta", 100))).some((r) => r.type === "equal"));
  const runs = alignTokens(tokenize(around("alpha", 1000)), tokenize(around("beta", 1000)));
  assert.deepEqual(runs.map((r) => r.type), ["delete", "insert"]);
  const a = Array.from({ length: 3000 }, (_, i) => `alpha${i}`).join(" ");
  const b = Array.from({ length: 3000 }, (_, i) => `beta${i}`).join(" ");
  const { stats } = compareTexts(a, b);
  assert.equal(stats.deleted, 3000);
  assert.equal(stats.inserted, 3000);
});

test("capitals only: the server read the precedent in capitals and the lawyer's clause not", () => {
  assert.equal(capitalsOnly({ capitals: true }, { capitals: false }), true);
  assert.equal(capitalsOnly({ capitals: true }, { capitals: true }), false);
  assert.equal(capitalsOnly({ capitals: true }, null), false); // not known: not said
  assert.equal(capitalsOnly(undefined, { capitals: false }), false);
});
