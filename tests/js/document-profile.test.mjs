// The pane's side of reading the open document: it collects Word's paragraphs and sends them
// once per version for the server to read (the server's clause-reading core is the only
// reader of parties and terms; tests/conform/test_document_check.py tests it), names the
// document by the server's id, and sends it again once if the server forgot it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { ApiError } from "../../addin_server/static/taskpane/api.js";
import { documentHeadings, documentKey, forgetDocument, serverDocument, withServerDocument } from "../../addin_server/static/taskpane/document-profile.js";
import { changeRows, overridesFrom } from "../../addin_server/static/taskpane/conform-view.js";

const CONTRACTOR = JSON.parse(readFileSync(new URL("./fixtures/documents/contractor-agreement.json", import.meta.url)));

/** A Word.run over a body the test can change (document.js walks it paragraph by paragraph). */
function wordOver(paragraphs) {
  const box = { paragraphs, reads: 0 };
  box.run = async (fn) => {
    box.reads += 1;
    const items = box.paragraphs.map((p) => ({
      text: p.text, style: p.style ?? "Normal", styleBuiltIn: "Normal", outlineLevel: 10, isListItem: Boolean(p.listString),
      tableNestingLevel: p.inTable ? 1 : 0, isNullObject: false, load() {},
      listItemOrNullObject: { listString: p.listString ?? "", isNullObject: !p.listString, load() {} },
    }));
    const end = { isNullObject: true, load() {}, listItemOrNullObject: { isNullObject: true, load() {} } };
    end.getNextOrNullObject = () => end;
    items.forEach((item, i) => { item.getNextOrNullObject = () => items[i + 1] ?? end; });
    return fn({ document: { body: { paragraphs: { getFirstOrNullObject: () => items[0] ?? end } } }, sync: async () => {} });
  };
  return box;
}

function fakeServer({ forgetOnce = false } = {}) {
  const calls = [];
  let forgotten = !forgetOnce;
  let n = 0;
  return {
    calls,
    api: () => ({
      async sendDocument({ paragraphs }) {
        calls.push({ op: "document", paragraphs });
        n += 1;
        return { id: `doc-${n}`, definitions: [], parties: [{ name: "Company" }], sections: [], paragraphs: paragraphs.length };
      },
      async conform({ document }) {
        calls.push({ op: "conform", document });
        if (!forgotten) {
          forgotten = true;
          throw new ApiError("http", "The server no longer holds your document.", { status: 404, code: "document_not_read" });
        }
        return { mappings: [] };
      },
    }),
  };
}

test("the document goes to the server once per version, as Word's paragraphs and nothing read from them", async () => {
  const word = wordOver(CONTRACTOR.slice(0, 60));
  const server = fakeServer();
  const ctx = { deps: { run: word.run }, state: { query: { text: "q1" } }, api: server.api };
  const first = await serverDocument(ctx);
  assert.equal(first.id, "doc-1");
  const sent = server.calls[0].paragraphs;
  assert.equal(sent.length, 60);
  assert.deepEqual(Object.keys(sent[3]).sort(), ["inTable", "index", "isHeading", "listString", "style", "text"]);
  assert.equal(sent[3].text, CONTRACTOR[3].text);
  assert.equal((await serverDocument(ctx)).id, "doc-1"); // same search: not even read again
  assert.equal(word.reads, 1);
  ctx.state.query = { text: "q2" }; // a new search reads the document again, but it has not changed: not sent
  assert.equal((await serverDocument(ctx)).id, "doc-1");
  assert.equal(server.calls.filter((c) => c.op === "document").length, 1);
  word.paragraphs = [...word.paragraphs, { index: 60, text: "A new clause the lawyer typed.", listString: "" }];
  forgetDocument(ctx.state); // after Insert or an added definition
  assert.equal((await serverDocument(ctx)).id, "doc-2");
});

test("a server that forgot the document is sent it again, once", async () => {
  const server = fakeServer({ forgetOnce: true });
  const ctx = { deps: { run: wordOver(CONTRACTOR.slice(0, 10)).run }, state: { query: { text: "q" } }, api: server.api };
  await withServerDocument(ctx, (document) => ctx.api().conform({ document }));
  assert.deepEqual(server.calls.map((c) => c.op + (c.document ? `:${c.document.id}` : "")), ["document", "conform:doc-1", "document", "conform:doc-2"]);
});

test("following the cursor: the headings in capitals are the server's, read once, and a failed read is not retried", async () => {
  const word = wordOver(CONTRACTOR.slice(0, 10));
  const sent = [];
  let fail = false;
  const api = () => ({
    async sendDocument({ paragraphs }) {
      sent.push(paragraphs);
      if (fail) throw new ApiError("http", "The document is too long.", { status: 413, code: "text_too_long" });
      return { id: "doc-1", headings: [0, 4], paragraphs: paragraphs.length };
    },
  });
  const ctx = { deps: { run: word.run }, state: { query: null }, api };
  const headings = await documentHeadings(ctx);
  assert.deepEqual([...headings], [CONTRACTOR[0].text, CONTRACTOR[4].text].map((t) => t.replace(/\s+/g, " ").trim()).filter(Boolean));
  await documentHeadings(ctx);
  assert.equal(sent.length, 1, "read and sent once");
  forgetDocument(ctx.state);
  fail = true;
  assert.equal((await documentHeadings(ctx)).size, 0, "no reading: no headings, the pane reads none itself");
  await documentHeadings(ctx);
  assert.equal(sent.length, 2, "a failed read is not tried again until the document changes");
});

test("documentKey tells versions apart", async () => {
  const a = await documentKey(CONTRACTOR);
  assert.equal(a, await documentKey(JSON.parse(JSON.stringify(CONTRACTOR))));
  assert.notEqual(a, await documentKey(CONTRACTOR.map((p, i) => (i === 5 ? { ...p, text: `${p.text}.` } : p))));
});

test("the lawyer's choices become overrides: rows as ticked, a missing term given a term of theirs", () => {
  const data = { mappings: [
    { source: "Provider", target: "Supplier", method: "role", apply: true },
    { source: "Partner", target: "Client", method: "role", apply: false },
    { source: "Fees", target: "Fees", method: "exact", apply: false },
    { source: "Discloser", target: "", method: "none", apply: false },
  ] };
  assert.deepEqual(changeRows(data).map((m) => m.source), ["Provider", "Partner"]);
  const rows = changeRows(data).map((m) => ({ source: m.source, checked: m.apply, value: m.target }));
  rows[0].value = "Vendor";
  assert.deepEqual(overridesFrom(rows, [{ term: "Discloser", value: "Disclosing Party" }]),
    { Provider: "Vendor", Partner: "", Discloser: "Disclosing Party" });
  assert.deepEqual(overridesFrom([], [{ term: "Discloser", value: "  " }]), {}, "an empty box changes nothing");
});
