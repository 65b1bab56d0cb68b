// The pane's own conform flow in Node, for `precedent-bench conform-pairs`: the same modules
// the task pane runs (document.js readParagraphs against a mocked Word body, the pane's
// document and conform requests through api.js), talking to a real server on loopback.
//
//   node precedent_bench/conform_pane.mjs < job.json > answer.json
//
// job: {base_url, paragraphs: [as Word presents them], clause_id, edit: {from, to} | null}.
// Nothing else reaches the pane or the server: the lawyer's edit is what a lawyer types in
// the pane (a term and its replacement); the labels stay with the scorer in Python.
// answer: {requests: [{path, body}], first: /conform answer, final: answer after the edit,
// edit_expressible: whether the pane's view offers a place to make the edit}.

import { readFileSync } from "node:fs";
import { OfficeMockObject } from "office-addin-mock";

const TASKPANE = new URL("../addin_server/static/taskpane/", import.meta.url);
const load = (name) => import(new URL(name, TASKPANE).href);

/** A mocked Word body holding `paragraphs` (WordApi 1.3 walk), as tests/js/document.test.mjs builds it. */
function mockWord(paragraphs) {
  const seed = (p) => ({
    text: `${p.text}\r`, style: p.style, styleBuiltIn: p.isHeading ? String(p.style).replace(/\s+/g, "") : "Normal",
    outlineLevel: p.isHeading ? Number(String(p.style).replace(/\D/g, "")) || 1 : 10, isListItem: Boolean(p.listString),
    tableNestingLevel: p.inTable ? 1 : 0, listItemOrNullObject: { listString: p.listString || "" },
  });
  const mocks = paragraphs.map((p) => new OfficeMockObject(seed(p)));
  const end = new OfficeMockObject({ text: "", style: "", styleBuiltIn: "", outlineLevel: 0, isListItem: false, tableNestingLevel: 0, listItemOrNullObject: { listString: "" } });
  const all = [...mocks, end];
  all.forEach((m, i) => {
    m.isNullObject = i === mocks.length;
    m.listItemOrNullObject.isNullObject = !paragraphs[i]?.listString;
    m.getNextOrNullObject = () => all[Math.min(i + 1, mocks.length)];
  });
  const root = new OfficeMockObject({ document: { body: { paragraphs: {} } } });
  root.document.body.paragraphs.getFirstOrNullObject = () => all[0];
  const context = {
    document: root.document,
    async sync() {
      for (const m of all) await m.sync();
    },
  };
  return (fn) => fn(context);
}

const job = JSON.parse(readFileSync(0, "utf8"));
const requests = [];
const recordingFetch = async (url, init) => {
  requests.push({ path: new URL(url).pathname, body: init?.body ? JSON.parse(init.body) : null });
  return fetch(url, init);
};
const { createApiClient } = await load("api.js");
const profileModule = await load("document-profile.js");
const view = await load("conform-view.js");
const api = createApiClient({ baseUrl: job.base_url, fetchImpl: recordingFetch, timeoutMs: 120_000 });
const ctx = { deps: { run: mockWord(job.paragraphs) }, state: { query: { text: "the lawyer's clause" } }, api: () => api };

/** One /conform call as the pane makes it (the document by id once sent; older panes: the summary). */
async function conform(overrides) {
  if (profileModule.withServerDocument) {
    return profileModule.withServerDocument(ctx, (document) => api.conform({ clauseIds: [job.clause_id], document, overrides }));
  }
  // The pane before issue 38 read the document itself and sent its summary (the baseline).
  const { readParagraphs } = await load("document.js");
  const summary = profileModule.summaryForServer(profileModule.documentProfile(await readParagraphs(ctx.deps.run, { batchSize: 200 })));
  return api.conform({ clauseIds: [job.clause_id], document: summary, overrides });
}

/** The rows the view shows for an answer, as the lawyer first sees them. */
function rowsOf(data) {
  if (view.changeRows) return view.changeRows(data).map((m) => ({ source: m.source, checked: Boolean(m.apply), value: m.target }));
  // Before issue 38 (the same rule, inline in render()).
  return (data.mappings ?? []).filter((m) => m.method !== "exact" && m.target && m.target !== m.source)
    .map((m) => ({ source: m.source, checked: Boolean(m.apply), value: m.target }));
}

const first = await conform({});
let final = first;
let expressible = null;
if (job.edit) {
  const rows = rowsOf(first);
  const missing = (first.missing_terms ?? []).map((m) => ({ term: m.term, value: "" }));
  const kept = (first.mappings ?? []).filter((m) => m.method === "exact").map((m) => m.source);
  const row = rows.find((r) => r.source === job.edit.from);
  const miss = missing.find((m) => m.term === job.edit.from);
  const canEditMissing = Boolean(view.overridesFrom); // the missing-term field, editable kept terms and
  // "Change another word" came with issue 38: the lawyer can name any word of the precedent.
  if (row) Object.assign(row, { checked: true, value: job.edit.to });
  else if (miss && canEditMissing) miss.value = job.edit.to;
  else if (kept.includes(job.edit.from) && canEditMissing) rows.push({ source: job.edit.from, checked: true, value: job.edit.to });
  else if (canEditMissing) missing.push({ term: job.edit.from, value: job.edit.to }); // "Change another word"
  expressible = Boolean(row || canEditMissing);
  if (expressible) {
    const overrides = view.overridesFrom ? view.overridesFrom(rows, missing)
      : Object.fromEntries(rows.map((r) => [r.source, r.checked ? r.value : ""]));
    final = await conform(overrides);
  }
}
process.stdout.write(JSON.stringify({ requests, first, final, edit_expressible: expressible }));
