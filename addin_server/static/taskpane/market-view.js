// "What do we usually agree?": the lawyer's clause compared with the firm's own precedents, term
// by term (POST /api/v1/market): per term a small bar chart of the values the matching documents
// hold, the lawyer's value placed among them, each bar opening its precedents (Open, Insert), and
// the sub-provisions most precedents have that the clause lacks. "Compare whole document" reads the
// open document (document.js, the one reader) and lists the clauses that stand out
// (POST /api/v1/market/document), each one click from its place.
//
// Counts are documents, not clauses: the server counts each document once per term.

import { adaptPrecedent, insertComment, needsTerms } from "./adapt.js";
import { ApiError } from "./api.js";
import { sourceText } from "./cards.js";
import { goToParagraph, readParagraphs } from "./document.js";
import { h, plural, text, truncate } from "./dom.js";
import { checkQueryText, wordErrorMessage } from "./messages.js";
import { filtersFromSettings } from "./settings.js";
import { recordEdit, setQuery } from "./state.js";
import { clauseKey, insertPrecedent, readSelection } from "./word.js";
import { forgetDocument, serverTerms } from "./document-profile.js";

const STATUS = {
  below: "Below our usual",
  above: "Above our usual",
  differs: "Differs from our usual",
  usual: "In line",
  not_stated: "Not in your clause",
  not_read: "Not read in yours",
  other_kind: "Yours: another kind of cap",
  no_market: "No precedent states one",
};
const DOCUMENT_TIMEOUT_MS = 120_000;
const count = (v) => (Number.isInteger(v) && v >= 0 ? v : 0);

// Nothing compared is no finding: "nothing stands out" would read as "in line with our precedents".
const NO_PRECEDENT = "No precedent in the library is close enough";
const WHAT_TO_DO = "Click Find precedent to see the nearest precedents, or clear the filters in Settings.";

/** "Compared with 25 documents (31 matching clauses)." or why there is nothing to compare. */
export function marketSummary(answer) {
  const s = answer?.summary && typeof answer.summary === "object" ? answer.summary : {};
  const documents = count(s.documents);
  if (!documents) return `${NO_PRECEDENT} to this clause to compare its terms, so this says nothing about whether they are usual. ${WHAT_TO_DO}`;
  const terms = count(s.terms);
  const found = terms ? `${plural(terms, "term")} found in your clause` : "No figure (period, amount, percentage, law) found in your clause";
  const folded = count(s.folded) ? `; ${plural(count(s.folded), "near copy", "near copies")} counted once` : "";
  return `${found}; compared with ${plural(documents, "document")} (${plural(count(s.matches), "matching clause")}${folded}).`;
}

/** "Yours: 60 days — above 2 of 2 documents" / "Not stated in your clause: 4 documents state one." */
export function placementLine(term) {
  const total = count(term?.documents);
  const yours = text(term?.yours?.label);
  if (term?.status === "other_kind") {
    return `Your clause caps liability another way (${yours}); ${plural(total, "document")} ${total === 1 ? "caps" : "cap"} it this way.`;
  }
  if (term?.status === "not_read") {
    return `Who your clause binds was not read as mutual or one-sided (for example a right only one side holds); ${plural(total, "document")} ${total === 1 ? "is" : "are"} read one way or the other: compare it yourself.`;
  }
  if (!yours) return total ? `Not stated in your clause; ${plural(total, "document")} ${total === 1 ? "states" : "state"} one.` : "";
  if (!total) return `Yours: ${yours}. No matching precedent states one.`;
  const p = term.placement || {};
  const parts = [];
  if (count(p.below)) parts.push(`below ${count(p.below)}`);
  if (count(p.same)) parts.push(`same as ${count(p.same)}`);
  if (count(p.above)) parts.push(`above ${count(p.above)}`);
  const flag = term?.yours?.disagree ? " (its words and figure differ in your clause; read as the words say)" : "";
  return `Yours: ${yours}${flag} — ${parts.length ? parts.join(", ") : "unlike all"} of ${plural(total, "document")}.`;
}

/** The precedent's text with its figure marked (the server's span), shortened around it. */
function figureText(doc, precedent, max = 320) {
  const body = text(precedent?.text);
  const f = precedent?.figure;
  const ok = f && Number.isInteger(f.start) && Number.isInteger(f.end) && f.start >= 0 && f.end <= body.length && body.slice(f.start, f.end) === f.text;
  if (!ok) return [truncate(body, max)];
  const from = Math.max(0, f.start - Math.floor(max / 2));
  const before = (from ? "…" : "") + body.slice(from, f.start);
  const after = truncate(body.slice(f.end), Math.max(40, max - (f.end - from)));
  return [before, h(doc, "mark", {}, f.text), after.startsWith("…") ? after : ` ${after}`.replace(/^ (\W)/, "$1")];
}

function precedentItem(doc, precedent, handlers) {
  const full = h(doc, "p", { className: "snippet full-text", dir: "auto", hidden: true }, ...figureText(doc, precedent, 4000));
  const open = h(doc, "button", { type: "button", className: "link", "aria-expanded": "false" }, "Open");
  open.addEventListener("click", () => {
    full.hidden = !full.hidden;
    open.setAttribute("aria-expanded", String(!full.hidden));
    open.textContent = full.hidden ? "Open" : "Close";
  });
  return h(doc, "li", { className: "market-precedent", dataset: { clauseId: text(precedent?.clause_id) } },
    h(doc, "p", { className: "source" }, h(doc, "bdi", { className: "source-title" }, sourceText(precedent?.source))),
    h(doc, "p", { className: "snippet", dir: "auto" }, ...figureText(doc, precedent)),
    full,
    h(doc, "div", { className: "card-actions" }, open,
      h(doc, "button", { type: "button", className: "link", dataset: { action: "insert" }, onclick: () => handlers.onInsert(precedent) }, "Insert")));
}

function bars(doc, term, handlers) {
  const buckets = (Array.isArray(term?.buckets) ? term.buckets : []).filter((b) => b && typeof b === "object");
  const most = Math.max(1, ...buckets.map((b) => count(b.documents)));
  return h(doc, "ul", { className: "bars" }, ...buckets.map((b) => {
    const list = h(doc, "ul", { className: "bucket-precedents", hidden: true },
      ...(Array.isArray(b.precedents) ? b.precedents : []).map((p) => precedentItem(doc, p, handlers)));
    const n = count(b.documents);
    const label = h(doc, "button", { type: "button", className: "bar-label link", "aria-expanded": "false", title: `Show the ${plural(n, "document")}` },
      text(b.label) || "—", b.yours ? " (yours)" : "");
    label.addEventListener("click", () => {
      list.hidden = !list.hidden;
      label.setAttribute("aria-expanded", String(!list.hidden));
    });
    const fill = h(doc, "span", { className: "bar-fill" });
    fill.style.width = `${Math.max(4, Math.round((100 * n) / most))}%`;
    return h(doc, "li", { className: `bar-row${b.yours ? " yours" : ""}` },
      label, h(doc, "span", { className: "bar", "aria-hidden": "true" }, fill),
      h(doc, "span", { className: "bar-count", "aria-label": plural(n, "document") }, String(n)), list);
  }));
}

/** Fill `container` with one card per term and the sub-provisions. */
export function renderMarket(doc, container, answer, handlers) {
  const terms = (Array.isArray(answer?.terms) ? answer.terms : []).filter((t) => t && typeof t === "object");
  const cards = terms.map((term) => h(doc, "li", { className: `card market-term status-${text(term.status) || "usual"}`, dataset: { dimension: text(term.dimension) } },
    h(doc, "div", { className: "card-head" },
      h(doc, "span", { className: "card-n" }, text(term.title) || text(term.dimension)),
      h(doc, "span", { className: "badge" }, STATUS[term.status] || "")),
    h(doc, "p", { className: "placement" }, placementLine(term)),
    bars(doc, term, handlers)));
  const subs = (Array.isArray(answer?.subprovisions) ? answer.subprovisions : []).filter((s) => s && typeof s === "object");
  const missing = new Set(Array.isArray(answer?.missing) ? answer.missing : []);
  if (subs.length) {
    const total = count(answer?.summary?.documents);
    cards.push(h(doc, "li", { className: "card market-subs" },
      h(doc, "div", { className: "card-head" }, h(doc, "span", { className: "card-n" }, "Sub-provisions")),
      h(doc, "ul", { className: "bars" }, ...subs.map((s) => {
        const n = count(s.documents);
        const list = h(doc, "ul", { className: "bucket-precedents", hidden: true },
          ...(Array.isArray(s.precedents) ? s.precedents : []).map((p) => precedentItem(doc, p, handlers)));
        const label = h(doc, "button", { type: "button", className: "bar-label link", "aria-expanded": "false" }, text(s.title) || text(s.name));
        label.addEventListener("click", () => {
          list.hidden = !list.hidden;
          label.setAttribute("aria-expanded", String(!list.hidden));
        });
        const note = s.yours ? "in yours" : missing.has(s.name) ? "missing from yours" : "not in yours";
        return h(doc, "li", { className: `sub-row${missing.has(s.name) ? " missing" : ""}` }, label,
          h(doc, "span", { className: "sub-note" }, `${n} of ${plural(total, "document")} · ${note}`), list);
      }))));
  }
  container.replaceChildren(...cards);
}

const unchecked = (c) => c && (c.compared === false || (c.compared === undefined && !count(c.documents)));

/** The whole document in one line: what stands out, and the clauses no precedent was close enough to check. */
export function documentSummary(answer) {
  const clauses = (Array.isArray(answer?.clauses) ? answer.clauses : []).filter((c) => c && typeof c === "object");
  const s = answer?.summary || {};
  const without = Number.isInteger(s.without_precedent) ? count(s.without_precedent) : clauses.filter(unchecked).length;
  const checked = Math.max(0, count(s.compared) - without);
  const rest = without ? ` ${plural(without, "clause")} had no comparable precedent and ${without === 1 ? "was" : "were"} not checked: that says nothing about ${without === 1 ? "it" : "them"}.` : "";
  if (!checked && without) return `${NO_PRECEDENT} to any of the ${plural(without, "clause")} to compare ${without === 1 ? "it" : "them"}: nothing was checked, so this says nothing about whether their terms are usual. ${WHAT_TO_DO}`;
  if (count(s.stand_out)) return `${plural(count(s.stand_out), "clause")} of ${checked} compared ${count(s.stand_out) === 1 ? "stands" : "stand"} out against our precedents. Click one to go to it.${rest}`;
  return `None of the ${plural(checked, "clause")} compared with precedents stands out.${rest}`;
}

/** The whole-document answer: one card per clause that stands out, then one per clause no
 * precedent was close enough to check, each a link to its place. */
export function renderStandOuts(doc, container, answer, onGo) {
  const all = (Array.isArray(answer?.clauses) ? answer.clauses : []).filter((c) => c && typeof c === "object");
  const clauses = all.filter((c) => c.stands_out && Array.isArray(c.findings));
  const go = (c) => h(doc, "button", { type: "button", className: "link go", onclick: () => onGo(c) }, `Paragraph ${count(c.index) + 1}`);
  container.replaceChildren(...clauses.map((c) => h(doc, "li", { className: "card standout" }, go(c),
    h(doc, "ul", { className: "findings" }, ...c.findings.map((f) => h(doc, "li", {}, findingLine(f)))))),
  ...all.filter(unchecked).map((c) => h(doc, "li", { className: "card unchecked" }, go(c),
    h(doc, "p", { className: "placement" }, "No comparable precedent found: not checked."))));
}

export function findingLine(f) {
  const title = text(f?.title) || text(f?.dimension);
  if (f?.kind === "missing") return `${title}: missing; ${count(f.usual_documents)} of ${plural(count(f.documents), "document")} have it.`;
  const usual = `${text(f?.usual)} in ${count(f?.usual_documents)} of ${plural(count(f?.documents), "document")}`;
  const how = f?.kind === "below" ? "below" : f?.kind === "above" ? "above" : "differs from";
  return `${title}: yours ${text(f?.yours)}, ${how} our usual ${usual}.`;
}

/** Compare and Compare whole document over `ctx` ({doc, deps, ui, state, api, feedback}). */
export function createMarket(ctx) {
  const { doc, deps, state } = ctx;
  const fb = ctx.feedback;
  const $ = (id) => doc.getElementById(id);
  const section = $("market-section");

  async function compare() {
    if (state.busy || state.editing) return;
    fb.showError("");
    let selection;
    try {
      selection = await readSelection(deps.run);
    } catch (err) {
      return fb.showError(wordErrorMessage(err, "read the selection"));
    }
    const problem = checkQueryText(selection.text);
    if (problem) return fb.showError(problem);
    if (!state.query || clauseKey(state.query.text) !== clauseKey(selection.text)) setQuery(state, selection.text, selection.source);
    await fb.withRequest("Comparing the terms of your clause with our precedents…", async (signal) => {
      const answer = await call(() => ctx.api().market({ text: clauseKey(selection.text), filters: filtersFromSettings(state.settings) }, { signal }));
      if (answer?.query_reading && state.query && clauseKey(state.query.text) === clauseKey(selection.text)) state.query.reading = answer.query_reading;
      $("market-summary").textContent = marketSummary(answer);
      renderMarket(doc, $("market-terms"), answer, { onInsert });
      $("market-standouts").replaceChildren();
      section.hidden = false;
      fb.setStatus($("market-summary").textContent);
      section.scrollIntoView?.({ block: "start" });
    });
  }

  async function checkDocument() {
    if (state.busy || state.editing) return;
    fb.showError("");
    let paragraphs;
    try {
      paragraphs = await readParagraphs(deps.run, { batchSize: 200 });
    } catch (err) {
      return fb.showError(wordErrorMessage(err, "read the document"));
    }
    const sent = paragraphs.filter((p) => text(p.text)).map((p) => ({ index: p.index, text: p.text, isHeading: p.isHeading }));
    if (!sent.length) return fb.showError("The document is empty: there is nothing to compare.");
    await fb.withRequest(`Comparing the ${plural(sent.length, "paragraph")} of this document with our precedents…`, async (signal) => {
      const answer = await call(() => ctx.api().marketDocument({ paragraphs: sent, filters: filtersFromSettings(state.settings) }, { signal, timeout: DOCUMENT_TIMEOUT_MS }));
      const line = documentSummary(answer);
      $("market-summary").textContent = line;
      $("market-terms").replaceChildren();
      renderStandOuts(doc, $("market-standouts"), answer, go);
      section.hidden = false;
      fb.setStatus(line);
    });
  }

  async function go(clause) {
    try {
      const found = await goToParagraph(deps.run, count(clause.index));
      if (!found) fb.showError("That paragraph is no longer in the document. Check the whole document again.");
    } catch (err) {
      fb.showError(wordErrorMessage(err, "go to the paragraph"));
    }
  }

  async function onInsert(precedent) {
    if (!state.query) return fb.showError("Select your clause and click Compare terms first.");
    await fb.withEdit("insert the precedent", async () => {
      // An all-capitals precedent goes into sentence case with the document's terms as the server read them.
      const readings = { theirs: precedent.reading, ours: state.query.reading };
      const terms = needsTerms(precedent.text, state.query.text, readings) ? await serverTerms(ctx) : null;
      const adapted = adaptPrecedent(precedent.text, state.query.text, readings, terms);
      await insertPrecedent(deps.run, {
        expectedText: state.query.expected,
        text: adapted.text,
        comment: insertComment(precedent.source, adapted.changes, precedent.text, []),
      });
      recordEdit(state, adapted.text);
      forgetDocument(state); // the document changed
      const how = adapted.changes.length ? ` Adapted: ${adapted.changes.join("; ")}.` : "";
      fb.setStatus(`Inserted the precedent from ${sourceText(precedent.source)} in place of your clause as a tracked change, with a comment recording its source.${how}`);
    });
  }

  async function call(request) {
    try {
      return await request();
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) throw new ApiError("http", "This server cannot compare with our precedents yet. Ask IT to update it.", { status: 404 });
      throw err;
    }
  }

  // A new Find is about another clause: an earlier comparison would be stale.
  ctx.ui.find.addEventListener("click", () => {
    section.hidden = true;
  });
  return { compare, checkDocument };
}
