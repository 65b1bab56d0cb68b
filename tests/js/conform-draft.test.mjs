// Carrying a redraft's sentence offsets over onto its conformed text (conform-draft.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { conformedAnswer, draftConformComment, offsetMaps } from "../../addin_server/static/taskpane/conform-draft.js";

const DRAFT = "Provider shall pay the fees [1]. A Provider may end it under Section 8.4. The Customer waives claims [2].";
const CONFORMED = "Supplier shall pay the fees [1]. An Affiliate may end it under Clause 12.3. The Client waives claims [2].";
const span = (text, sentence) => ({ start: text.indexOf(sentence), end: text.indexOf(sentence) + sentence.length, sentence });

test("every sentence offset follows the conformed wording, a rewritten first word included", () => {
  const answer = {
    redraft: DRAFT,
    comments: [{ marker: "[1]", ...span(DRAFT, "Provider shall pay the fees [1].") }, { marker: "[2]", ...span(DRAFT, "The Customer waives claims [2].") }],
    uncited_sentences: [span(DRAFT, "A Provider may end it under Section 8.4.")],
    flagged: [{ n: 2, ...span(DRAFT, "The Customer waives claims [2].") }],
    citations: [{ n: 1 }],
  };
  const out = conformedAnswer(answer, { text: CONFORMED });
  assert.equal(out.redraft, CONFORMED);
  assert.deepEqual(out.comments.map((c) => c.sentence), ["Supplier shall pay the fees [1].", "The Client waives claims [2]."]);
  assert.deepEqual(out.uncited_sentences.map((c) => CONFORMED.slice(c.start, c.end)), ["An Affiliate may end it under Clause 12.3."]);
  assert.equal(out.flagged[0].sentence, "The Client waives claims [2].");
  assert.deepEqual(out.citations, answer.citations);
  assert.equal(answer.redraft, DRAFT, "the server's answer is not changed");
});

test("a sentence sent with wrong offsets is found by its text; one not found is kept as it was", () => {
  const answer = { redraft: DRAFT, comments: [{ marker: "[2]", start: 3, end: 9, sentence: "The Customer waives claims [2]." }, { marker: "[9]", sentence: "Not in the draft." }] };
  const out = conformedAnswer(answer, { text: CONFORMED });
  assert.equal(out.comments[0].sentence, "The Client waives claims [2].");
  assert.deepEqual(out.comments[1], answer.comments[1]);
});

test("nothing changed, or no text: the answer itself", () => {
  const answer = { redraft: DRAFT, comments: [] };
  assert.equal(conformedAnswer(answer, { text: DRAFT }), answer);
  assert.equal(conformedAnswer(answer, {}), answer);
});

test("offsets count UTF-16 code units, as the server's and the pane's do", () => {
  const maps = offsetMaps("𝒜 Provider pays.", "𝒜 Supplier pays.");
  assert.equal(maps.start(3), 3);
  assert.equal(maps.end(16), 16);
});

test("a span ending right before a rewritten word keeps its end", () => {
  const maps = offsetMaps("Pay the fees.Provider shall", "Pay the fees.Supplier shall");
  assert.equal(maps.end(13), 13);
  assert.equal(maps.start(13), 13);
});

test("the clause comment names the precedents and every line", () => {
  const text = draftConformComment({ precedents: [{ source: { document: "Pilot Agreement", section: "1.7", heading: "Reservation of Rights" } }] },
    ["conformed to your document: Provider → Supplier (2 times)", "not defined in your document: Product"]);
  assert.match(text, /^Redraft from Pilot Agreement.*\.\nConformed to your document: Provider → Supplier \(2 times\)\nNot defined in your document: Product$/);
  assert.equal(draftConformComment({}, []), "");
});
