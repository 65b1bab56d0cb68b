// Insert, conformed: before a precedent goes in, the pane collects the open document's
// paragraphs (document.js) for the server, which reads its parties, terms and sections
// (document-profile.js; the server's clause-reading core is the only reader), and shows what
// conforming would change: each party and defined term mapped ("Provider → Supplier",
// editable, each one untickable), each cross-reference mapped or flagged, and the terms the
// document does not define, with the precedent's own definition ready to add or a term of the
// lawyer's choosing. Nothing changes in the document until Insert; the inserted text is a
// tracked change and its Word comment records the source and every substitution. A redraft
// gets the same pass and the same view before Apply (forDraft; conform-draft.js carries it
// onto the draft).

import { adaptPrecedent, insertComment, needsTerms } from "./adapt.js";
import { forgetDocument, serverDocument, serverTerms, withServerDocument } from "./document-profile.js";
import { insertParagraphAfter } from "./document.js";
import { h, plural, truncate } from "./dom.js";
import { ApiError } from "./api.js";
import { recordEdit } from "./state.js";
import { insertPrecedent } from "./word.js";

/** Lines for the Word comment: every substitution, every reference left as written, every missing term. */
export function conformChanges(data) {
  const lines = [];
  const subs = (data?.mappings ?? []).filter((m) => m.apply && m.target && m.target !== m.source);
  if (subs.length) lines.push(`conformed to your document: ${subs.map((m) => `${m.source} \u2192 ${m.target} (${plural(m.occurrences, "time")}${m.method === "lawyer" ? ", your choice" : ""})`).join(", ")}`);
  const refs = data?.cross_references ?? [];
  const moved = refs.filter((r) => (r.status === "mapped" || r.status === "lawyer") && r.target && r.target !== r.number);
  if (moved.length) lines.push(`cross-references: ${moved.map((r) => `section ${r.number} \u2192 ${r.target}`).join(", ")}`);
  const left = refs.filter((r) => r.status !== "mapped" && r.status !== "lawyer");
  if (left.length) lines.push(`left as written, check: ${left.map((r) => `section ${r.number}${r.heading ? ` (${r.heading})` : ""}`).join(", ")}`);
  const missing = data?.missing_terms ?? [];
  if (missing.length) lines.push(`not defined in your document: ${missing.map((m) => m.term).join(", ")}`);
  return lines;
}

/** The mapping rows the view shows: every change, applied or only suggested, and the lawyer's. */
export function changeRows(data, suggested = {}) {
  const mappings = Array.isArray(data?.mappings) ? data.mappings : [];
  const shown = (m) => m.method !== "exact" && ((m.target && m.target !== m.source) || (m.method === "lawyer" && suggested[m.source]));
  return mappings.filter(shown).map((m) => (m.target ? m : { ...m, target: suggested[m.source] }));
}

/**
 * The lawyer's choices as the server's overrides: each row ticked keeps its term (edited or
 * not), unticked keeps the precedent's word (""); a term the document does not define that the
 * lawyer gave a term of theirs maps to it. `rows`: [{source, checked, value}]; `missing`:
 * [{term, value}]; `previous`: the overrides already sent (the lawyer's earlier choices).
 */
export function overridesFrom(rows, missing = [], previous = {}) {
  const out = { ...previous };
  for (const r of rows) out[r.source] = r.checked ? String(r.value ?? "").trim() : "";
  for (const m of missing) if (String(m.value ?? "").trim()) out[m.term] = String(m.value).trim();
  return out;
}

/** True when conforming changes nothing and has nothing to report. */
export function nothingToConform(data) {
  return !conformChanges(data).length && !(data?.mappings ?? []).some((m) => m.target && m.target !== m.source);
}

/** The mapping view and Insert, over `ctx` ({doc, deps, ui, state, api, feedback}). */
export function createConform(ctx) {
  const { doc, deps, state } = ctx;
  const fb = ctx.feedback;

  /** The document as the server read it, once per search (the lawyer may edit between searches). */
  function profile() {
    return serverDocument(ctx);
  }

  /** Why the document could not be read, for the lawyer: the server's words when it said why. */
  function unreadable(err) {
    return err instanceof ApiError && err.kind === "http" ? err.message : "The pane could not read your document";
  }

  /** An older server, without /document or /conform: Insert and Apply work as they always did. */
  const older = (err) => err instanceof ApiError && err.status === 404 && err.code !== "document_not_read";

  /** Insert clicked: read the document, ask the server, show the mapping in the card. */
  async function start(result, card) {
    if (!state.query) return fb.showError("Click Find precedent first.");
    const area = card.querySelector(".conform") ?? card.appendChild(h(doc, "div", { className: "conform" }));
    const unsupported = () => insert(result, card, null, " This server does not conform precedents, so it keeps its own terms.");
    let docProfile;
    try {
      docProfile = await profile();
    } catch (err) {
      if (older(err)) return unsupported();
      fb.showError(`${unreadable(err).replace(/\.$/, "")}, so the precedent was not conformed. Use Insert as is, or try again.`);
      return renderFallback(result, card, area, "Your document was not read, so the precedent goes in with its own terms.");
    }
    await request({
      area,
      clauseIds: [result.clause_id],
      ready: "Check the changes, then click Insert.",
      actions: (data) => h(doc, "div", { className: "button-row" },
        h(doc, "button", { type: "button", className: "primary", dataset: { action: "insert-conformed" }, onclick: () => insert(result, card, data) }, "Insert"),
        h(doc, "button", { type: "button", className: "secondary", onclick: () => insert(result, card, null) }, "Insert as is"),
        h(doc, "button", { type: "button", className: "link", onclick: () => area.replaceChildren() }, "Cancel")),
      // An older server (no /conform): Insert works as it always did, with the precedent's own terms.
      unsupported,
    }, docProfile, {});
  }

  /**
   * A redraft is back: the same conforming pass and the same mapping view over its text, shown
   * after the draft (`after`) and before Apply. `onData(data)` gets every answer, the lawyer's
   * edits included, so Apply puts in what the view shows. Resolves when the first answer is in.
   */
  async function forDraft(answer, { clauseIds, after, onData, status }) {
    const area = h(doc, "div", { className: "conform conform-draft" });
    after.parentNode?.querySelector(":scope > .conform-draft")?.remove();
    after.after(area);
    if (!clauseIds.length || typeof answer?.redraft !== "string" || !answer.redraft.trim()) return area.remove();
    const unsupported = () => { // an older server: the draft goes in as the model wrote it
      area.remove();
      if (status) fb.setStatus(status(null, true));
    };
    let docProfile;
    try {
      docProfile = await profile();
    } catch (err) {
      if (older(err)) return unsupported();
      area.replaceChildren(h(doc, "p", { className: "note" }, `${unreadable(err).replace(/\.$/, "")}, so the draft keeps the wording shown above.`));
      return;
    }
    await request({
      area,
      clauseIds,
      text: answer.redraft,
      ready: "Check the changes to the draft, then click Apply to document.",
      status,
      actions: () => h(doc, "p", { className: "note" }, "Apply to document puts the draft in with the ticked changes only; untick a change to keep the draft's own word."),
      onData,
      unsupported,
    }, docProfile, {});
  }

  async function request(view, docProfile, overrides, suggest = false) {
    let unsupported = false;
    await fb.withRequest(view.text === undefined ? "Conforming the precedent to your document…" : "Conforming the draft to your document…", async (signal) => {
      let data;
      try {
        data = await withServerDocument(ctx, (document, latest) => {
          docProfile = latest;
          return ctx.api().conform({ clauseIds: view.clauseIds, document, overrides, suggest, text: view.text }, { signal });
        }, { signal });
      } catch (err) {
        if (older(err)) {
          unsupported = true;
          return;
        }
        throw err;
      }
      render(view, docProfile, data, overrides);
      view.onData?.(data);
      const nothing = nothingToConform(data);
      fb.setStatus(view.status ? view.status(data, nothing) : nothing ? "Nothing to conform: the precedent already uses your document's terms." : view.ready);
    });
    if (unsupported) await view.unsupported();
  }

  function renderFallback(result, card, area, note = "This server cannot conform precedents to your document. The precedent goes in with its own terms.") {
    area.replaceChildren(
      h(doc, "p", { className: "note" }, note),
      h(doc, "div", { className: "button-row" }, h(doc, "button", { type: "button", className: "primary", onclick: () => insert(result, card, null) }, "Insert as is")),
    );
  }

  function render(view, docProfile, data, overrides) {
    const { area } = view;
    const mappings = Array.isArray(data.mappings) ? data.mappings : [];
    // What the server first suggested, so a row the lawyer unticks stays in the list, unticked.
    const suggested = JSON.parse(area.dataset.suggested || "{}");
    if (!Object.keys(overrides).length) for (const m of mappings) if (m.target && m.target !== m.source) suggested[m.source] = m.target;
    area.dataset.suggested = JSON.stringify(suggested);
    const changes = changeRows(data, suggested);
    const kept = mappings.filter((m) => m.method === "exact");
    const refs = Array.isArray(data.cross_references) ? data.cross_references : [];
    const missing = Array.isArray(data.missing_terms) ? data.missing_terms : [];
    const rerun = () => request(view, docProfile, collect(area));
    const what = view.text === undefined ? "precedent" : "draft";
    const parts = [h(doc, "h3", { className: "conform-head" }, view.text === undefined ? "Conform to your document" : "Conform the draft to your document")];
    if (nothingToConform(data)) {
      parts.push(h(doc, "p", { className: "note conform-none" }, `Nothing to conform: the ${what} uses no party, defined term or cross-reference that differs from your document.`));
    }
    if (changes.length) {
      parts.push(h(doc, "ul", { className: "conform-map", "aria-label": "Terms to change" }, changes.map((m) => mappingRow(m, rerun))));
    }
    if (refs.length) parts.push(h(doc, "ul", { className: "conform-refs", "aria-label": "Cross-references" }, refs.map((r) => referenceRow(r, rerun))));
    if (missing.length) parts.push(missingList(missing, docProfile, what, rerun));
    // Already the document's terms; each can still be changed: a click gives it a row to edit.
    if (kept.length) {
      parts.push(h(doc, "p", { className: "note conform-kept" }, "Already your terms: ",
        kept.flatMap((m, i) => [i ? ", " : "", h(doc, "button", { type: "button", className: "link", dataset: { term: m.source },
          title: `Use another term for \u201c${m.source}\u201d`, onclick: (e) => editKept(area, m, rerun, e.target) }, m.source)]), "."));
    }
    if (missing.length && state.capabilities?.redraft?.available && !mappings.some((m) => m.method === "llm")) {
      parts.push(h(doc, "button", { type: "button", className: "link", title: "An AI suggestion is shown unticked; nothing changes until you tick it",
        onclick: () => request(view, docProfile, collect(area), true) }, "Suggest matches for these terms with AI"));
    }
    parts.push(otherTerm(rerun));
    if (view.text === undefined) parts.push(h(doc, "details", { className: "conform-preview" }, h(doc, "summary", {}, "Conformed text"), h(doc, "p", {}, truncate(data.text, 1200))));
    parts.push(view.actions(data));
    area.replaceChildren(...parts);
    area.dataset.overrides = JSON.stringify(overrides);
  }

  function mappingRow(m, rerun) {
    const id = `map-${Math.random().toString(36).slice(2, 9)}`;
    const low = !m.apply;
    return h(doc, "li", { className: low ? "conform-row low" : "conform-row", dataset: { source: m.source } },
      h(doc, "input", { type: "checkbox", id, checked: Boolean(m.apply), "aria-label": `Change ${m.source}`, onchange: rerun }),
      h(doc, "label", { htmlFor: id, className: "from" }, m.source),
      h(doc, "span", { "aria-hidden": "true" }, " \u2192 "),
      h(doc, "input", { type: "text", className: "to", value: m.target, "aria-label": `Your term for ${m.source}`, onchange: rerun }),
      h(doc, "span", { className: "why" }, `${plural(m.occurrences, "time")} \u00b7 ${m.reason}${low ? " \u00b7 not applied" : ""}`));
  }

  /** Any other word of the precedent the lawyer wants in their own term ("AI" -> "Artificial Intelligence"). */
  function otherTerm(rerun) {
    // Only the replacement sends the change: the lawyer types the word first, then theirs.
    const field = (name, label) => h(doc, "input", { type: "text", className: name, "aria-label": label, onchange: name === "other-to" ? rerun : null });
    return h(doc, "details", { className: "conform-other" },
      h(doc, "summary", {}, "Change another word"),
      h(doc, "p", { className: "note" }, "Replace ", field("other-from", "Word in the precedent"), " with ", field("other-to", "Your word"),
        h(doc, "span", { className: "why" }, " \u00b7 only that word, as written (capitals, plural and possessive kept)")));
  }

  /** A term already the document's, made editable: a row of its own, ticked, the term in its box. */
  function editKept(area, m, rerun, button) {
    let list = area.querySelector(".conform-map");
    if (!list) {
      list = h(doc, "ul", { className: "conform-map", "aria-label": "Terms to change" });
      area.querySelector(".conform-head").after(list);
    }
    const row = mappingRow({ ...m, target: m.source, apply: true, reason: "your document's term; type the one to use" }, rerun);
    list.append(row);
    button.disabled = true;
    row.querySelector("input.to").focus();
  }

  function referenceRow(r, rerun) {
    const applied = r.status === "mapped" || r.status === "lawyer";
    if (r.status === "flagged") {
      return h(doc, "li", { className: "conform-row flag", dataset: { reference: r.number } },
        h(doc, "span", { className: "from" }, `Section ${r.number}${r.heading ? ` (${r.heading})` : ""}`),
        h(doc, "span", { className: "why" }, r.heading ? ` \u00b7 no section headed \u201c${r.heading}\u201d in your document: left as written, check it` : " \u00b7 its heading is unknown: left as written, check it"));
    }
    const id = `ref-${Math.random().toString(36).slice(2, 9)}`;
    return h(doc, "li", { className: applied ? "conform-row" : "conform-row low", dataset: { reference: r.number } },
      h(doc, "input", { type: "checkbox", id, checked: applied, "aria-label": `Change section ${r.number}`, onchange: rerun }),
      h(doc, "label", { htmlFor: id, className: "from" }, `Section ${r.number}`),
      h(doc, "span", { "aria-hidden": "true" }, " \u2192 "),
      h(doc, "input", { type: "text", className: "to", value: r.target, "aria-label": `Your section for ${r.number}`, onchange: rerun }),
      h(doc, "span", { className: "why" }, r.status === "suggested" ? ` \u00b7 same heading at another level: not applied` : ` \u00b7 ${r.heading}`));
  }

  function missingList(missing, docProfile, what = "precedent", rerun = () => {}) {
    const last = docProfile.definitions.filter((d) => d.how === "quoted").at(-1);
    return h(doc, "div", { className: "conform-missing" },
      h(doc, "p", { className: "note" }, `${plural(missing.length, "term")} the ${what} uses ${missing.length === 1 ? "is" : "are"} not defined in your document:`),
      h(doc, "ul", {}, missing.map((m) => h(doc, "li", { dataset: { term: m.term } },
        h(doc, "strong", {}, m.term),
        // A term built on a party the text renames reads half-changed: the server says so.
        m.note ? h(doc, "span", { className: "why note-built" }, ` \u00b7 ${m.note}`) : "",
        m.definition
          ? [h(doc, "blockquote", {}, truncate(m.definition, 300)),
             h(doc, "button", { type: "button", className: "link", title: last ? "Adds it after your last definition, as a tracked change" : "Adds it at the end of your document, as a tracked change",
               onclick: (e) => addDefinition(m, last, e.target) }, "Add definition")]
          : h(doc, "span", { className: "why" }, " \u00b7 not defined in the precedent's own document either"),
        // Or the lawyer's own term for it ("Disclosing Party"): that term replaces it, nothing else.
        h(doc, "label", { className: "use-term" }, "Use your term: ",
          h(doc, "input", { type: "text", className: "to", value: "", placeholder: m.term, "aria-label": `Your term for ${m.term}`, onchange: rerun }))))));
  }

  async function addDefinition(m, last, button) {
    await fb.withEdit("add the definition", async () => {
      await insertParagraphAfter(deps.run, last ? last.index : -1, m.definition);
      button.disabled = true;
      button.textContent = "Added \u2713";
      forgetDocument(state); // the document changed
      fb.setStatus(`Added the definition of \u201c${m.term}\u201d as a tracked change${last ? " after your last definition" : " at the end of your document"}.`);
    });
  }

  /** The lawyer's choices in the view, as the server's overrides. */
  function collect(area) {
    const rows = [...area.querySelectorAll(".conform-map li")].map((row) => ({
      source: row.dataset.source, checked: row.querySelector("input[type=checkbox]").checked, value: row.querySelector("input.to").value,
    }));
    const missing = [...area.querySelectorAll(".conform-missing li")].map((row) => ({ term: row.dataset.term, value: row.querySelector("input.to")?.value ?? "" }));
    const from = area.querySelector(".conform-other .other-from")?.value.trim();
    if (from) missing.push({ term: from, value: area.querySelector(".conform-other .other-to")?.value ?? "" });
    const out = overridesFrom(rows, missing, JSON.parse(area.dataset.overrides || "{}"));
    for (const row of area.querySelectorAll(".conform-refs li")) {
      const box = row.querySelector("input[type=checkbox]");
      if (!box) continue;
      out[`\u00a7${row.dataset.reference}`] = box.checked ? row.querySelector("input.to").value.trim() : "";
    }
    return out;
  }

  async function insert(result, card, data, note = "") {
    const n = Number(card.dataset.n);
    const text = data ? data.text : result.text;
    await fb.withEdit("insert the precedent", async () => {
      // The capitals of the document's terms as the server read them (held since the mapping was shown).
      // The conformed text's own reading comes with it (POST /conform `reading`).
      const readings = { theirs: data ? data.reading : result.reading, ours: state.query.reading };
      const terms = needsTerms(text, state.query.text, readings) ? await serverTerms(ctx) : null;
      const adapted = adaptPrecedent(text, state.query.text, readings, terms);
      const changes = [...adapted.changes, ...(data ? conformChanges(data) : [])];
      const { source } = await insertPrecedent(deps.run, {
        expectedText: state.query.expected,
        text: adapted.text,
        comment: insertComment(result.source, changes, result.text, result.spans),
      });
      recordEdit(state, adapted.text);
      state.inserted = result.clause_id;
      ctx.usage?.send("insert", result.clause_id); // what the ranker learns from (usage.js)
      if (state.redraft) state.redraft.applied = false;
      forgetDocument(state);
      card.querySelector(".conform")?.replaceChildren();
      const what = source === "paragraph" ? "the paragraph" : "your clause";
      const how = adapted.changes.length ? ` Adapted: ${adapted.changes.join("; ")}.` : "";
      const conformed = data ? ` Conformed to your document: ${conformChanges(data).length ? "the comment lists every change" : "nothing needed changing"}.` : "";
      fb.setStatus(`Inserted precedent [${n}] in place of ${what} as a tracked change, with a comment recording its source.${how}${conformed}${note}`);
    });
  }

  /** The document for a redraft: {id} of the document the server read, when it has parties or terms. */
  async function summary() {
    const read = await profile();
    return read.definitions.length || read.parties.length ? { id: read.id } : undefined;
  }

  return { start, forDraft, profile, summary };
}
