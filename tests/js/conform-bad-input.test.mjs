// Bad input for the document profile, the summary sent to the server and the document check:
// no definitions, 2,000 defined terms, definitions in a table or a schedule, non-English text.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { documentProfile, summaryForServer } from "../../addin_server/static/taskpane/document-profile.js";
import { checkDocument } from "../../addin_server/static/taskpane/doc-check.js";

const CONTRACTOR = JSON.parse(readFileSync(new URL("./fixtures/documents/contractor-agreement.json", import.meta.url)));
const para = (index, text, extra = {}) => ({ index, text, listString: "", style: "Normal", isHeading: false, inTable: false, ...extra });
// The server's body limit with default settings (PRECEDENT_MAX_TEXT_CHARS 20,000 x 6 + instructions x 6 + 64 kB).
const SERVER_BODY_LIMIT = 20000 * 6 + 1000 * 6 + 64 * 1024;

test("2,000 defined terms: all terms sent, within the server's body limit, and the check stays fast enough to finish", () => {
  const real = CONTRACTOR.filter((p) => /^\u201c/.test(p.text)).map((p) => p.text);
  const paragraphs = Array.from({ length: 2000 }, (_, i) => para(i, real[i % real.length].replace(/^\u201c([^\u201d]+)\u201d/, `\u201c$1 ${i}\u201d`), { listString: `1.${i + 1}` }));
  const profile = documentProfile(paragraphs);
  assert.equal(profile.definitions.length, 2000);
  const summary = summaryForServer(profile);
  assert.equal(summary.definitions.length, 2000);
  assert.equal(summary.truncated, true); // said, so the server (and the lawyer) know
  assert.ok(JSON.stringify({ clause_ids: ["x"], document: summary }).length < SERVER_BODY_LIMIT);
  const findings = checkDocument(paragraphs);
  assert.ok(findings.filter((f) => f.kind === "unused").length > 1000); // 2,000 invented terms nobody uses
});

test("no definitions: an empty summary and no definition findings", () => {
  const paragraphs = [para(0, "1. Services. The supplier provides the services described in the order."), para(1, "2. Fees. The customer pays the fees within 30 days of invoice.")];
  const summary = summaryForServer(documentProfile(paragraphs));
  assert.deepEqual(summary.definitions, []);
  assert.deepEqual(checkDocument(paragraphs).filter((f) => f.kind !== "undefined"), []);
});

test("definitions in a table and in a schedule after the body are found with their place", () => {
  const paragraphs = [
    para(0, "1. Services. The Supplier provides the Services to the Client under the Order."),
    para(1, "2. Fees. The Client pays the Charges for the Services."),
    para(2, "Schedule 1 \u2013 Definitions", { isHeading: true }),
    para(3, "\u201cServices\u201d means the services in the Order.", { inTable: true }),
    para(4, "\u201cCharges\u201d means the amounts in the Order.", { inTable: true }),
    para(5, "Order Form", { inTable: true }),
    para(6, "The order form signed by both parties.", { inTable: true }),
  ];
  const profile = documentProfile(paragraphs);
  const terms = Object.fromEntries(profile.definitions.map((d) => [d.term, d]));
  assert.ok(terms.Services.inTable && terms.Charges.inTable);
  assert.equal(terms["Order Form"].how, "table");
  const undefinedTerms = checkDocument(paragraphs, { parties: ["Supplier", "Client"] }).filter((f) => f.kind === "undefined");
  assert.deepEqual(undefinedTerms, []);
});

test("non-English text: nothing invented, nothing lost", () => {
  const paragraphs = [
    para(0, "Le Fournisseur (le \u00ab Prestataire \u00bb) fournit les Services au Client."),
    para(1, "\u201cDonn\u00e9es Client\u201d d\u00e9signe les donn\u00e9es du Client.", { listString: "1.1" }),
    para(2, "Der Auftragnehmer haftet nach Ma\u00dfgabe von Ziffer 12 f\u00fcr Sch\u00e4den.", { listString: "2." }),
  ];
  const profile = documentProfile(paragraphs);
  assert.deepEqual(profile.definitions, []); // "désigne" is not read as "means": no guessed definitions
  assert.deepEqual(checkDocument(paragraphs).filter((f) => f.kind === "missing-section"), []);
});
