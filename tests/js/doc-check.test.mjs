// The document profile (definitions, parties, section map) and the document check, on a
// real agreement's paragraphs (Common Paper Independent Contractor Agreement, CC BY 4.0)
// and on small edits of it that plant each kind of error.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { definedTermsIn, documentProfile, sectionMap, summaryForServer } from "../../addin_server/static/taskpane/document-profile.js";
import { checkDocument, crossReferences } from "../../addin_server/static/taskpane/doc-check.js";

const CONTRACTOR = JSON.parse(readFileSync(new URL("./fixtures/documents/contractor-agreement.json", import.meta.url)));
const edit = (paragraphs, index, fn) => paragraphs.map((p) => (p.index === index ? { ...p, text: fn(p.text) } : p));
const at = (label) => CONTRACTOR.find((p) => p.listString === label && p.text.length > 40).index;
const kinds = (findings, kind) => findings.filter((f) => f.kind === kind).map((f) => f.term);

test("definitions: “X” means, chained terms, defining parentheticals; not quoted words in prose", () => {
  assert.deepEqual(definedTermsIn("“Processing” or “Process” will have the meaning given in the DPA."), ["Processing", "Process"]);
  assert.deepEqual(definedTermsIn("Acme Inc. (the “Supplier”) and Beta LLC (each, a “Party”)"), ["Supplier", "Party"]);
  assert.deepEqual(definedTermsIn("Provider gives it “AS IS” without warranty."), []);
});

test("profile of a real agreement: parties, definitions with their section, a decimal section map", () => {
  const profile = documentProfile(CONTRACTOR);
  assert.deepEqual(profile.parties.map((p) => p.term), ["Company", "Contractor"]);
  const work = profile.definitions.find((d) => d.term === "Work Product");
  assert.equal(work.section, "10.11");
  const map = new Map(profile.sections.map((s) => [s.number, s.heading]));
  assert.equal(map.get("8.4"), "Exceptions");
  assert.equal(map.get("4.2"), "Termination");
  assert.ok(map.has("4.2(a)"));
  assert.equal(profile.referenceWord, "Section");
});

test("the server summary holds definitions, headings and numbers only, never other text", () => {
  const summary = summaryForServer(documentProfile(CONTRACTOR));
  const sent = JSON.stringify(summary);
  const body = CONTRACTOR.find((p) => p.listString === "1.2").text; // a clause that defines nothing
  assert.ok(!sent.includes(body.slice(20, 80)));
  assert.ok(summary.definitions.some((d) => d.term === "Confidential Information"));
  assert.deepEqual(Object.keys(summary).sort(), ["definitions", "parties", "reference_word", "sections", "truncated"]);
});

test("the unmodified agreement: no missing sections, no duplicate or unused definitions", () => {
  const found = checkDocument(CONTRACTOR, { parties: ["Company", "Contractor"] });
  assert.deepEqual(kinds(found, "missing-section"), []);
  assert.deepEqual(kinds(found, "defined-twice"), []);
  assert.deepEqual(kinds(found, "unused"), []);
});

test("planted errors are each found, at the paragraph they are in", () => {
  let doc = edit(CONTRACTOR, at("8.2"), (t) => `${t} Increased Claims are not subject to this cap.`);
  doc = edit(doc, at("9.3"), (t) => t.replace("Contractor may not assign", "Contractor may not, except under Section 14.2 (Exceptions), assign"));
  doc = edit(doc, at("9.6"), (t) => `${t} “Services” means any work Contractor does for anyone.`);
  doc = edit(doc, at("5.1"), (t) => t.replace("Confidential Information", "Confidential information"));
  const found = checkDocument(doc, { parties: ["Company", "Contractor"] });
  const undefinedTerm = found.find((f) => f.kind === "undefined" && f.term === "Increased Claims");
  assert.equal(undefinedTerm.index, at("8.2"));
  assert.deepEqual(kinds(found, "missing-section"), ["14.2"]);
  assert.deepEqual(kinds(found, "defined-twice"), ["Services"]);
  assert.ok(kinds(found, "capitalisation").includes("Confidential Information"));
});

test("a definition nobody uses is reported", () => {
  const doc = edit(CONTRACTOR, at("10.7"), () => "“Moral Rights” means rights of paternity, integrity, disclosure and withdrawal.");
  const without = doc.map((p) => (p.index === at("3.2") ? { ...p, text: "Deleted." } : p));
  assert.ok(kinds(checkDocument(without), "unused").includes("Moral Rights"));
});

test("names of laws, bodies, lists, places and the document's own parts are not undefined terms; a real one still is", () => {
  const doc = edit(CONTRACTOR, at("10.7"), (t) => `${t} Contractor will comply with OFAC\u2019s Specially Designated Nationals and Blocked Persons List, ` +
    "the Health Insurance Portability and Accountability Act, rules of the Office of Foreign Assets Control and the " +
    "Delaware General Corporation Law, as any California-based Employee would under the Standard Terms. The Passive " +
    "Retention Amount is paid monthly, but this does not extend to the Escrow Materials.");
  const found = kinds(checkDocument(doc, { parties: ["Company", "Contractor"] }), "undefined");
  assert.deepEqual(found, ["Passive Retention Amount", "Escrow Materials"], "capitalised terms nobody defines are still found");
});

test("a term defined in the plural and used in the singular (or -y / -ies) is used; a statute's section is not ours", () => {
  const doc = [
    { index: 0, text: "1. Definitions. \u201cCovered Employees\u201d means the staff named in writing. \u201cHigh Risk Activity\u201d means a use where failure could cause death.", listString: "1.", inTable: false },
    { index: 1, text: "2. Duties. Each Covered Employee will avoid High Risk Activities. Removal follows Section 141(k) and Section 2.", listString: "2.", inTable: false },
  ];
  const found = checkDocument(doc);
  assert.deepEqual(kinds(found, "unused"), []);
  assert.deepEqual(kinds(found, "missing-section"), []);
  const planted = edit(doc, 1, (t) => `${t} See Section 7.`);
  assert.deepEqual(kinds(checkDocument(planted), "missing-section"), ["7"]);
});

test("cross-references: lists with headings, another document's sections are not ours", () => {
  assert.deepEqual(crossReferences("Sections 8.1 (Damages Waiver) and 8.2 (Liability Cap) apply").map((r) => r.number), ["8.1", "8.2"]);
  assert.deepEqual(crossReferences("as described in Section 4 of the DPA"), []);
  assert.deepEqual(crossReferences("under Section 4.2(a) of this Agreement").map((r) => r.number), ["4.2(a)"]);
});

test("bad input: no paragraphs, no definitions, no numbering: no findings and no error", () => {
  assert.deepEqual(checkDocument([]), []);
  assert.deepEqual(checkDocument(undefined), []);
  const plain = [{ index: 0, text: "Le Fournisseur fournit les Services au Client conformément à l’article 12.", listString: "", style: "Normal", isHeading: false, inTable: false }];
  assert.deepEqual(kinds(checkDocument(plain), "missing-section"), []);
  assert.deepEqual(sectionMap(plain), []);
});

test("a selected definition searches definitions; a clause searches clauses", async () => {
  const { searchUnit } = await import("../../addin_server/static/taskpane/document-profile.js");
  assert.deepEqual(searchUnit("“Supplier Personnel” means all employees and agents of the Supplier."), { unit: "definition", term: "Supplier Personnel" });
  assert.deepEqual(searchUnit("The Supplier shall provide the Services (the “Work”) with due care."), {});
});

test("a cover row asking for a legal name names a party, whatever word the document uses", () => {
  // The layout of an OpenAgreements cover (key-terms table), with the parties renamed by the firm.
  const row = (index, text, inTable = true) => ({ index, text, listString: "", style: "Normal", isHeading: false, inTable });
  const doc = [row(0, "Cover Terms", false), row(1, "Organisation"), row(2, "[Legal name of the employer]"),
    row(3, "Staff Member"), row(4, "[Full legal name of the employee]"), row(5, "Governing Law"), row(6, "Arizona"),
    ...[7, 8, 9].map((i) => row(i, "Staff Member will not solicit Organisation's clients for Organisation's rivals.", false))];
  const profile = documentProfile(doc);
  assert.deepEqual(profile.parties.map((p) => p.term), ["Organisation", "Staff Member"]);
  const summary = summaryForServer(profile);
  assert.equal(summary.definitions.find((d) => d.term === "Organisation").text, "Organisation: [Legal name of the employer]");
  // A one-word row with any other value is not a definition, nor a party.
  const other = documentProfile([row(0, "Arizona"), row(1, "the State of Arizona"), ...doc.slice(7)]);
  assert.deepEqual(other.parties, []);
  assert.equal(other.definitions.length, 0);
});
