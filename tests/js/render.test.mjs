// The pane's pure helpers (formatting, adapting, checks); the DOM itself is exercised in
// pane.browser.test.mjs and render.browser.test.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { adaptPrecedent, documentTerms, insertComment, needsTerms, readLabel, sentenceCase } from "../../addin_server/static/taskpane/adapt.js";
import { readingOf } from "./fixtures/fake-api.mjs";
import { ASSUMED, capabilitiesFrom } from "../../addin_server/static/taskpane/capabilities.js";
import { searchMatch, snippetPieces, sourceLine, starRating } from "../../addin_server/static/taskpane/cards.js";
import { truncate } from "../../addin_server/static/taskpane/dom.js";
import { variationsSummary } from "../../addin_server/static/taskpane/explore.js";
import { MAX_SELECTION_CHARS, checkQueryText, forLawyer, wordErrorMessage } from "../../addin_server/static/taskpane/messages.js";
import { redraftPieces, spansIn } from "../../addin_server/static/taskpane/redraft-view.js";
import { readyMessage } from "../../addin_server/static/taskpane/redraft-flow.js";
import { rerankNote } from "../../addin_server/static/taskpane/results.js";
import { SelectionChangedError } from "../../addin_server/static/taskpane/word.js";

test("AI ratings to one decimal, 3.6 and 4.4 told apart; none for unrated results", () => {
  assert.equal(starRating(null), null);
  assert.equal(starRating(undefined), null);
  assert.equal(starRating(Number.NaN), null);
  assert.deepEqual(starRating(4.44), { value: 4.4, fill: 0.88, text: "4.4", label: "AI fit rating 4.4 out of 5" });
  assert.notEqual(starRating(3.6).fill, starRating(4.4).fill);
  assert.equal(starRating(7).value, 5);
  assert.equal(starRating(0.2).value, 1);
});

test("unrated results say how the search found them, in words", () => {
  assert.equal(searchMatch({ retrieval: { ranks: { dense: 1, bm25: 4 } } }).text, "Same words and meaning");
  assert.equal(searchMatch({ retrieval: { ranks: { bm25: 4 } } }).text, "Same words");
  assert.equal(searchMatch({ retrieval: { ranks: { dense: 2 } } }).label, "Not rated by AI. Found by the meaning of your clause.");
  assert.deepEqual(searchMatch({}), { text: "", label: "Not rated by AI." });
  assert.deepEqual(searchMatch(null), { text: "", label: "Not rated by AI." });
});

test("source line: title and where, with nothing invented for absent fields", () => {
  assert.deepEqual(sourceLine({ document: "MSA", section: "12.1", heading: "Cap" }), { title: "MSA", where: "12.1 Cap" });
  assert.deepEqual(sourceLine({ document: "MSA", section: "3", heading: "3 Fees" }), { title: "MSA", where: "3 Fees" });
  assert.deepEqual(sourceLine({ file: "a.docx", section: null, heading: null }), { title: "a.docx", where: "" });
  assert.deepEqual(sourceLine(undefined), { title: "Untitled document", where: "" });
  assert.deepEqual(sourceLine({ document: { name: "x" }, section: 7 }), { title: "Untitled document", where: "7" });
});

test("snippet: matching spans marked; a span beyond the cut moves the window to it", () => {
  const text = `${"lead words ".repeat(40)}the fees paid in the twelve months${" tail".repeat(20)}`;
  const start = text.indexOf("the fees");
  const pieces = snippetPieces(text, [{ start, end: start + 34, score: 0.9 }, { start: -1, end: 3 }, { start: 5, end: 999999 }], 200);
  assert.equal(pieces[0].text, "… ");
  assert.deepEqual(pieces.filter((p) => p.mark).map((p) => p.text), ["the fees paid in the twelve months"]);
  assert.equal(snippetPieces("Short clause.", undefined).map((p) => p.text).join(""), "Short clause.");
});

test("rerank note: nothing when rated; the server's reason in plain words otherwise", () => {
  assert.equal(rerankNote({ status: "applied" }, ASSUMED), "");
  assert.equal(rerankNote(undefined, ASSUMED), "");
  assert.equal(
    rerankNote({ status: "skipped", reason: "Rerank is off by default on this server (PRECEDENT_RERANK_DEFAULT)." }, ASSUMED),
    "Ordered by how closely the wording matches, not rated by AI. Turn on AI rating in Settings to rate each precedent's fit.",
  );
  assert.equal(
    rerankNote({ status: "unavailable", reason: "timed out" }, ASSUMED),
    "Ordered by how closely the wording matches, not rated by AI: AI rating is unavailable just now (timed out).",
  );
});

test("capabilities from /health, and from an older server's llm block", () => {
  const none = capabilitiesFrom({ llm: { configured: false } });
  assert.equal(none.redraft.available, false);
  assert.match(none.redraft.reason, /no drafting assistant connected/);
  const caps = capabilitiesFrom({ capabilities: { search: true, rerank: { available: false, reason: "Set PRECEDENT_LLM_BASE_URL." }, redraft: { available: true } } });
  assert.equal(caps.rerank.available, false);
  assert.equal(caps.rerank.reason, "Ask IT to check the server's settings.");
  assert.equal(caps.redraft.available, true);
  assert.equal(capabilitiesFrom(null), ASSUMED);
  assert.equal(capabilitiesFrom({ llm: { configured: true, rerank_default: false } }).rerank.default, false);
});

test("messages for lawyers: no setting names, no addresses, no nested brackets", () => {
  assert.equal(forLawyer("Rerank is off by default on this server (PRECEDENT_RERANK_DEFAULT)."), "Rerank is off by default on this server.");
  assert.equal(forLawyer("The model failed (upstream (HTTP 500 (Internal))). Try again."), "The model failed (upstream). Try again.");
  // Sentences as the server sends them (the core's reading/sentences.py); the pane cuts none itself.
  assert.equal(forLawyer("Cannot reach http://10.1.2.3:8081/v1. Try later.", ["Cannot reach http://10.1.2.3:8081/v1.", "Try later."]),
    "Ask IT to check the server's settings. Try later.");
  assert.equal(forLawyer("Cannot reach http://10.1.2.3:8081/v1. Try later."), "Ask IT to check the server's settings.");
  assert.equal(forLawyer("Set the folder, e.g. var/index. Then restart.", ["Set the folder, e.g. var/index.", "Then restart."]),
    "Set the folder, e.g. var/index. Then restart.");
  assert.equal(forLawyer(""), "");
});

test("query checks: nothing selected, too long, fine", () => {
  assert.match(checkQueryText(""), /Nothing is selected/);
  assert.match(checkQueryText(" \r\n"), /Nothing is selected/);
  assert.match(checkQueryText("x".repeat(MAX_SELECTION_CHARS + 1)), /20,001 characters long.*at most 20,000/);
  assert.equal(checkQueryText("x".repeat(MAX_SELECTION_CHARS)), "");
});

test("Word failures in plain words, the detail left to the console", () => {
  assert.match(wordErrorMessage(new SelectionChangedError()), /changed since you searched/);
  const logged = [];
  const info = console.info;
  console.info = (m) => logged.push(m);
  try {
    assert.equal(wordErrorMessage(new Error("GeneralException"), "insert the precedent"), "Word could not insert the precedent. Click in the document and try again.");
  } finally {
    console.info = info;
  }
  assert.deepEqual(logged, ["Precedent: Word said: GeneralException"]);
});

test("truncate cuts at a word and adds an ellipsis", () => {
  assert.equal(truncate("short  text"), "short text");
  assert.equal(truncate("alpha beta gamma delta epsilon", 18), "alpha beta gamma…");
  assert.equal(truncate(null), "");
});

// The server's reading of each text (a result's `reading`, the lawyer's `query_reading`), as
// the core answers it (tests/js/fixtures/label-readings.json, checked by tests/reading/test_labels.py).
const read = (theirs, ours, heading = "") => ({ theirs: readingOf(theirs, heading), ours: readingOf(ours) });
const adapt = (theirs, ours, terms = null, heading = "") => adaptPrecedent(theirs, ours, read(theirs, ours, heading), terms);

test("Insert adapts: the precedent's number and heading dropped, the lawyer's kept, as the server read them", () => {
  const theirs = "12.1 Cap on liability. Each party's liability is capped.";
  const ours = "7.2 Liability cap. The Supplier's liability is unlimited.";
  assert.deepEqual(readLabel(theirs, readingOf(theirs, "Cap on liability")),
    { number: "12.1", heading: "Cap on liability", body: "Each party's liability is capped.", capitals: false, starts: null });
  const out = adapt(theirs, ours, null, "Cap on liability");
  assert.equal(out.text, "7.2 Liability cap. Each party's liability is capped.");
  assert.deepEqual(out.changes, ["dropped the precedent's number 12.1 and heading “Cap on liability”", "kept your number and heading"]);
  assert.deepEqual(adapt("Each party's liability is capped.", "The Supplier's liability is unlimited."), { text: "Each party's liability is capped.", changes: [] });
  // An older server (no reading, or a broken one): nothing is dropped or kept, and the pane says so.
  for (const readings of [{}, { theirs: readingOf(theirs, "Cap on liability") }, { theirs: { body: 999, capitals: false }, ours: readingOf(ours) }]) {
    const kept = adaptPrecedent(theirs, ours, readings);
    assert.equal(kept.text, theirs);
    assert.deepEqual(kept.changes, ["put in as written: the server did not say where the clause numbers, headings and capitals are, so none were adapted"]);
  }
});

test("Insert adapts capitals to the lawyer's document, keeping its terms as the server read them", () => {
  // POST /api/v1/document's `terms`: the words the lawyer's document writes as terms, as it
  // writes them (index_builder/reading/document.py written_terms). The pane reads none itself.
  // Its `forms`: each term's plural and possessive forms as the core reads them (written_forms;
  // the pane reads no endings itself).
  const forms = (t, plural = `${t}s`) => [`${t}'s`, `${t}’s`, `${plural}'`, `${plural}’`, plural, t];
  const answer = { terms: ["Agreement", "Supplier", "Customer", "SOW", "Business Day", "service credits", 7, null],
    forms: { Supplier: forms("Supplier"), Customer: forms("Customer"), SOW: forms("SOW"), "Business Day": forms("Business Day") } };
  const terms = documentTerms(answer);
  assert.deepEqual(terms.filter((t) => answer.terms.includes(t)), ["Agreement", "Supplier", "Customer", "SOW", "Business Day"]); // no lower-case or broken entries
  assert.ok(terms.includes("Customers") && terms.includes("Supplier’s") && !terms.includes("service credits"));
  const capped = "THE SUPPLIER'S LIABILITY TO THE CUSTOMERS UNDER THIS AGREEMENT AND THE SOW IS CAPPED. IT IS FINAL.";
  assert.equal(sentenceCase(capped, terms, readLabel(capped, readingOf(capped)).starts),
    "The Supplier's liability to the Customers under this Agreement and the SOW is capped. It is final.");
  // A server that sends no forms: each term as written only, no ending guessed here.
  assert.equal(sentenceCase("THE SUPPLIER'S LIABILITY TO THE CUSTOMERS.", documentTerms({ terms: ["Supplier", "Customer"] })),
    "The Supplier's liability to the customers.");
  // A term of several words keeps its capitals only as a whole: "day" alone is an ordinary word.
  assert.equal(sentenceCase("PAYMENT IS DUE ON THE NEXT BUSINESS DAY, AND IN ANY CASE WITHIN ONE DAY.", terms),
    "Payment is due on the next Business Day, and in any case within one day.");
  // Inside a longer word, or a word that only starts like a term, nothing is restored.
  assert.equal(sentenceCase("SUPPLIERSHIP AND SOWING ARE NOT TERMS.", terms), "Suppliership and sowing are not terms.");
  assert.equal(adapt("THE SUPPLIER SHALL PAY.", "The Supplier pays.", terms).text, "The Supplier shall pay.");
  assert.equal(adapt("Fees are payable in advance.", "THE SUPPLIER DISCLAIMS ALL WARRANTIES.").text, "FEES ARE PAYABLE IN ADVANCE.");
  // Each sentence the server read starts with a capital; "Section 3.5." does not end one.
  const fees = "Section 4 Fees. THE FEES ARE SET OUT IN SECTION 3.5. THEY ARE DUE ON THE FIRST BUSINESS DAY OF EACH MONTH.";
  assert.equal(adapt(fees, "The Supplier pays.", terms).text, "The fees are set out in section 3.5. They are due on the first Business Day of each month.");
  // Without the server's sentence starts, only the first letter is a capital.
  assert.equal(sentenceCase("THE FEES ARE DUE. THEY ARE PAID.", terms), "The fees are due. they are paid.");
  // An older server (no `terms` in its answer) or none at all: null, never a reading of our own.
  assert.equal(documentTerms({ id: "doc-1", definitions: [{ term: "Supplier" }], parties: [] }), null);
  assert.equal(documentTerms(null), null);
});

test("without the server's reading of the document, an all-capitals precedent goes in as written, and the pane says so", () => {
  const lawyer = "The Supplier's liability to the Customer under this Agreement is capped.";
  const precedent = "9. LIMITATION OF LIABILITY. THE SUPPLIER'S LIABILITY UNDER THIS AGREEMENT IS CAPPED.";
  assert.equal(needsTerms(precedent, lawyer, read(precedent, lawyer, "Limitation of liability")), true);
  assert.equal(needsTerms(precedent, lawyer, {}), false); // no reading of the capitals: nothing to recase
  assert.equal(needsTerms("The Supplier's liability is capped.", lawyer, read("The Supplier's liability is capped.", lawyer)), false); // already in the lawyer's style
  assert.equal(needsTerms("FEES ARE PAYABLE.", "THE SUPPLIER DISCLAIMS ALL WARRANTIES.", read("FEES ARE PAYABLE.", "THE SUPPLIER DISCLAIMS ALL WARRANTIES.")), false); // capitals both
  const out = adapt(precedent, lawyer, null, "Limitation of liability");
  assert.equal(out.text, "THE SUPPLIER'S LIABILITY UNDER THIS AGREEMENT IS CAPPED.");
  assert.deepEqual(out.changes, ["dropped the precedent's number 9 and heading “LIMITATION OF LIABILITY”",
    "left its capitals as written: your document's defined terms could not be read, so it was not put in sentence case"]);
  // An empty reading (a document that writes no terms) is a reading: sentence case, no capitals kept.
  assert.equal(adapt(precedent, lawyer, [], "Limitation of liability").text, "The supplier's liability under this agreement is capped.");
});

test("the insert comment names the source and the adaptations", () => {
  assert.equal(insertComment({ citation: "MSA, section 12.1 (Cap)", file: "MSA.docx" }, ["dropped the precedent's number 12.1"]),
    "Inserted from precedent: MSA, section 12.1 (Cap) (MSA.docx).\nAdapted: dropped the precedent's number 12.1.");
  assert.equal(insertComment(null), "Inserted from precedent: a precedent.");
  // The matching passage (the server's span) is quoted; invalid offsets quote nothing.
  const clause = "Definitions apply. The Supplier's total liability is capped at the fees paid. Notices go by email.";
  const start = clause.indexOf("The Supplier");
  const end = clause.indexOf(" Notices");
  assert.match(insertComment({ citation: "MSA 9.1" }, [], clause, [{ start, end, score: 0.8 }]),
    /Best match with your clause: \u201cThe Supplier's total liability is capped at the fees paid\.\u201d/);
  assert.doesNotMatch(insertComment({ citation: "MSA 9.1" }, [], clause, [{ start: 5, end: 999 }]), /Best match/);
});

test("redraft pieces: markers, uncited and flagged sentences, offsets checked against the text", () => {
  const redraft = "Fees are capped [1]. Fraud is excluded [2]. The Customer waives all claims.";
  const uncited = { start: 44, end: redraft.length, sentence: "The Customer waives all claims." };
  const pieces = redraftPieces({ redraft, uncited_sentences: [uncited], flagged: [{ start: 21, end: 43, sentence: "Fraud is excluded [2]." }] });
  assert.deepEqual(pieces.filter((p) => p.marker).map((p) => p.marker), [1, 2]);
  assert.equal(pieces.filter((p) => p.uncited).map((p) => p.text).join(""), "The Customer waives all claims.");
  assert.equal(pieces.filter((p) => p.flagged).map((p) => p.text).join(""), "Fraud is excluded [2].");
  assert.equal(pieces.map((p) => p.text).join(""), redraft);
  // Offsets that do not match their sentence are found by the sentence, or dropped.
  assert.deepEqual(spansIn(redraft, [{ start: 0, end: 5, sentence: "The Customer waives all claims." }]).map((s) => s.start), [44]);
  assert.deepEqual(spansIn(redraft, [{ start: 0, end: 5, sentence: "Not there." }, null, { start: "x" }]), []);
});

test("the redraft status says what to check", () => {
  assert.equal(readyMessage({ citations: [{}, {}], flagged: [{}], uncited_sentences: [{}, {}] }),
    "Redraft ready with 2 citations; check 1 flagged citation and 2 sentences without a source. Review it, then Apply to put it in the document.");
  assert.equal(readyMessage({}), "Redraft ready with 0 citations. Review it, then Apply to put it in the document.");
});

test("the explorer's summary line", () => {
  assert.equal(variationsSummary({ wordings: 7, documents: 31, minor_variations: 12 }), "7 wordings across 31 documents (12 near-identical variants).");
  assert.equal(variationsSummary({ wordings: 1, documents: 1 }), "1 wording across 1 document.");
  assert.equal(variationsSummary(null), "No earlier wordings of this clause were found in the library.");
});
