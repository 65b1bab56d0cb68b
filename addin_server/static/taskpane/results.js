// Find precedent and what each result card does: Insert (adapted, with a comment recording the
// source), Compare (a blackline against the lawyer's clause), Copy, Show full clause.

import { adaptPrecedent, insertComment, needsTerms } from "./adapt.js";
import { capitalsOnly, compareTexts } from "./blackline.js";
import { renderClauseContext, renderResultCard } from "./cards.js";
import { renderBlackline } from "./compare-view.js";
import { showMark } from "./curation-view.js";
import { h, plural, text, truncate } from "./dom.js";
import { ApiError } from "./api.js";
import { forgetDocument, serverTerms } from "./document-profile.js";
import { checkQueryText, forLawyer, logForIt, wordErrorMessage } from "./messages.js";
import { filtersFromSettings } from "./settings.js";
import { facetFields, fieldLabels } from "./settings-view.js";
import { recordEdit, setQuery } from "./state.js";
import { clauseKey, insertPrecedent, readSelection } from "./word.js";

/** The line under the results when they were not rated by AI, or "" when they were. */
export function rerankNote(rerank, capabilities) {
  if (!rerank || typeof rerank !== "object" || rerank.status === "applied") return "";
  const order = "Ordered by how closely the wording matches, not rated by AI";
  if (capabilities && capabilities.rerank && !capabilities.rerank.available) {
    return `Ordered by how closely the wording matches. ${capabilities.rerank.reason}`;
  }
  const reason = forLawyer(typeof rerank.reason === "string" ? rerank.reason : "");
  if (rerank.status === "unavailable") return `${order}: AI rating is unavailable just now${reason ? ` (${reason.replace(/\.$/, "")})` : ""}.`;
  return `${order}. Turn on AI rating in Settings to rate each precedent's fit.`;
}

/** Find, rendering and card actions over `ctx` ({doc, deps, ui, state, api, feedback, redraft}). */
export function createResults(ctx) {
  const { doc, deps, ui, state } = ctx;
  const fb = ctx.feedback;

  async function find() {
    if (state.busy || state.editing) return;
    fb.showError("");
    let selection;
    try {
      selection = await readSelection(deps.run);
    } catch (err) {
      fb.showError(wordErrorMessage(err, "read the selection"));
      return;
    }
    const problem = checkQueryText(selection.text);
    if (problem) {
      fb.setStatus("");
      fb.showError(problem);
      return;
    }
    // Results of an earlier search belong to an earlier clause: clear them first.
    setQuery(state, selection.text, selection.source);
    ctx.redraft.discard();
    ui.results.replaceChildren();
    ui.resultsSection.hidden = true;
    ui.redraftSection.hidden = true;
    ui.variationsSection.hidden = true;
    ui.variations.replaceChildren();
    showQuery();
    await search("No precedents found. Try selecting more of the clause, or clear the filters in Settings.");
  }

  /** POST /precedents for the current clause with the current settings, and show the answer. */
  async function search(noneFound) {
    const query = state.query;
    await fb.withRequest("Searching precedents…", async (signal) => {
      const rerank = state.capabilities.rerank.available ? state.settings.rerank : null;
      // A selected definition searches the library's definitions: the server's reader of
      // definitions decides ("unit": "auto"), and the answer's "unit" says what it searched.
      const filters = filtersFromSettings(state.settings);
      const data = await ctx.api().findPrecedents(
        { text: clauseKey(query.text), topK: state.settings.topK, filters, unit: "auto", rerank: rerank ?? undefined, ...ctx.follow?.options() },
        { signal },
      );
      state.resultsMode = data.mode === "strict" ? "strict" : "ranked"; // follow.js, issue 31
      if (data.query_reading) query.reading = data.query_reading; // its number, heading, capitals
      state.results = (Array.isArray(data.results) ? data.results : []).filter((r) => r && typeof r === "object" && typeof r.text === "string");
      ctx.usage?.fromSearch(data); // the list id usage feedback names (usage.js)
      render(data.rerank);
      renderFacets(data.facets);
      const n = state.results.length;
      const unit = data.unit && typeof data.unit.term === "string" ? data.unit : null;
      const what = unit ? `definition${n === 1 ? "" : "s"} of \u201c${unit.term}\u201d and similar terms` : "";
      fb.setStatus(n ? (what ? `${n} ${what} found.` : `${plural(n, "precedent")} found.`) : noneFound);
    });
  }

  function showQuery() {
    const words = clauseKey(state.query.text).split(" ").length;
    const from = state.query.source === "paragraph" ? "paragraph at the cursor" : "selected text";
    ui.query.replaceChildren(
      h(doc, "span", { className: "query-label" }, `Your clause (${from}, ${plural(words, "word")}):`),
      h(doc, "q", {}, truncate(state.query.text, 160)),
    );
    ui.query.hidden = false;
  }

  function render(rerank) {
    ui.results.replaceChildren(
      ...state.results.map((result, i) =>
        renderResultCard(doc, result, i + 1, handlers, {
          canEdit: deps.canEdit,
          editMessage: deps.editMessage,
          selected: state.picked.has(result.clause_id),
          inserted: state.inserted === result.clause_id,
          canCurate: Boolean(ctx.usage?.canCurate()),
        }),
      ),
    );
    ui.rerankNote.textContent = rerankNote(rerank, state.capabilities);
    ui.rerankNote.hidden = !ui.rerankNote.textContent;
    ctx.follow?.decorate(ui.results); // strict match lines, curation badges (follow.js)
    ui.resultsSection.hidden = false;
    ui.redraftSection.hidden = state.results.length === 0;
    fb.refreshButtons();
  }

  /** "Narrow to:" buttons from the facet counts over this search's candidates; "Any …" clears a filter. */
  function renderFacets(facets) {
    const box = ui.facetChips;
    const wasOpen = box.querySelector("details")?.open;
    box.replaceChildren();
    const chosen = state.settings.filters || {};
    const fields = facetFields(facets && typeof facets === "object" ? { fields: facets } : null);
    const groups = [];
    for (const field of fields) {
      const values = facets[field].filter((v) => v && text(v.value) && Number.isInteger(v.count)).slice(0, 6);
      if (values.length < 2 && !chosen[field]) continue; // nothing to narrow
      const [label, any] = fieldLabels(field);
      const group = h(doc, "div", { className: "chips", role: "group", "aria-label": label, dataset: { field } }, h(doc, "span", { className: "chips-label" }, `${label}:`));
      if (chosen[field]) group.append(h(doc, "button", { type: "button", className: "chip", onclick: () => narrow(field, "") }, `${any} ✕`));
      for (const v of values) {
        const value = text(v.value);
        const on = chosen[field] === value;
        group.append(h(doc, "button", { type: "button", className: on ? "chip on" : "chip", "aria-pressed": String(on), onclick: () => narrow(field, on ? "" : value) }, `${value} (${v.count})`));
      }
      groups.push(group);
    }
    box.hidden = !groups.length;
    if (!groups.length) return;
    const active = Object.keys(chosen).filter((f) => chosen[f]).length;
    const names = groups.map((g) => g.dataset.field.replace(/[_.-]+/g, " ")).join(", ");
    box.append(h(doc, "details", { open: Boolean(wasOpen || active) },
      h(doc, "summary", {}, active ? `Narrowed (${active}): change` : `Narrow by ${names}`), groups));
  }

  async function narrow(field, value) {
    const filters = { ...(state.settings.filters || {}) };
    if (value) filters[field] = value;
    else delete filters[field];
    try {
      state.settings = await deps.settingsStore.save({ ...state.settings, filters });
    } catch (err) {
      return fb.showError(`The filter could not be saved: ${err.message}`);
    }
    const query = state.query;
    await searchAgain(query);
  }

  /** Search again for the clause already found (after a filter changed), without reading Word. */
  async function searchAgain(query) {
    if (!query || state.busy || state.editing) return;
    setQuery(state, query.text, query.source);
    ctx.redraft.discard();
    await search("No precedents found with these filters.");
  }

  const handlers = {
    onSelect(result, checked) {
      if (checked) state.picked.add(result.clause_id);
      else state.picked.delete(result.clause_id);
      fb.refreshButtons();
    },

    async onInsert(result, card) {
      if (!state.query) return fb.showError("Click Find precedent first.");
      if (ctx.conform) return ctx.conform.start(result, card); // shows the mapping first (conform-view.js)
      const n = Number(card.dataset.n);
      await fb.withEdit("insert the precedent", async () => {
        // An all-capitals precedent goes into sentence case with the document's terms as the server read them.
        const readings = { theirs: result.reading, ours: state.query.reading };
        const terms = needsTerms(result.text, state.query.text, readings) ? await serverTerms(ctx) : null;
        const adapted = adaptPrecedent(result.text, state.query.text, readings, terms);
        const { source } = await insertPrecedent(deps.run, {
          expectedText: state.query.expected,
          text: adapted.text,
          comment: insertComment(result.source, adapted.changes, result.text, result.spans),
        });
        recordEdit(state, adapted.text);
        forgetDocument(state); // the document changed
        state.inserted = result.clause_id;
        ctx.usage?.send("insert", result.clause_id);
        if (state.redraft) state.redraft.applied = false;
        const what = source === "paragraph" ? "the paragraph" : "your clause";
        const how = adapted.changes.length ? ` Adapted: ${adapted.changes.join("; ")}.` : "";
        fb.setStatus(`Inserted precedent [${n}] in place of ${what} as a tracked change, with a comment recording its source.${how}`);
      });
    },

    onCompare(result, card) {
      const area = card.querySelector(".blackline");
      const button = card.querySelector("button[data-action=compare]");
      if (!area.hidden) {
        area.hidden = true;
        button.setAttribute("aria-expanded", "false");
        button.textContent = "Compare";
        return;
      }
      if (!state.query) return fb.showError("Click Find precedent first.");
      renderBlackline(doc, area, compareTexts(state.query.text, result.text, { capitals: capitalsOnly(result.reading, state.query.reading) }));
      ctx.usage?.send("compare", result.clause_id);
      area.hidden = false;
      button.setAttribute("aria-expanded", "true");
      button.textContent = "Hide comparison";
    },

    async onCopy(result) {
      fb.showError("");
      try {
        await copyText(result.text);
        ctx.usage?.send("copy", result.clause_id);
        fb.setStatus("Precedent copied to the clipboard.");
      } catch {
        fb.showError("The pane could not use the clipboard. Open Show full clause and copy the text by hand.");
      }
    },

    onFeedback(result, kind, reason) {
      ctx.usage?.send(kind, result.clause_id, reason);
    },

    /** Knowledge team: save a mark, then show it on the card (curation-view.js). */
    async onCurate(result, fields, message) {
      try {
        const data = await ctx.api().curate({ clauseId: result.clause_id, ...fields });
        showMark(doc, message.closest(".card"), result, data.curation);
        fb.setStatus(data.curation ? `Marked: ${data.curation.label}.` : "Mark removed.");
        return true;
      } catch (err) {
        message.textContent = err?.message || "The mark could not be saved.";
        return false;
      }
    },

    async onExpand(result, card) {
      const full = card.querySelector(".full");
      const button = card.querySelector("button.expand");
      const open = full.hidden;
      full.hidden = !open;
      button.setAttribute("aria-expanded", String(open));
      button.textContent = open ? "Hide full clause" : "Show full clause";
      card.querySelector(".snippet").hidden = open;
      if (!open || full.dataset.loaded) return;
      ctx.usage?.send("show_full", result.clause_id);
      renderClauseContext(doc, full, null, result.text);
      full.dataset.loaded = "1";
      try {
        const data = await ctx.api().getClause(result.clause_id);
        renderClauseContext(doc, full, data, result.text);
      } catch (err) {
        // The clause itself is already shown; only its surrounding clauses are missing.
        logForIt("", err?.message, "Precedent (full clause)");
        const why = err instanceof ApiError && err.kind === "network" ? " The server could not be reached." : "";
        full.append(h(doc, "p", { className: "field-error" }, `The surrounding clauses could not be loaded.${why}`));
      }
    },
  };

  async function copyText(text) {
    if (deps.clipboard?.writeText) {
      try {
        await deps.clipboard.writeText(text);
        return;
      } catch {
        // Office on the web can deny the async clipboard to the pane's iframe; fall back.
      }
    }
    const area = h(doc, "textarea", { className: "offscreen", readonly: "", "aria-hidden": "true" });
    area.value = text;
    doc.body.append(area);
    area.select();
    const ok = doc.execCommand?.("copy");
    area.remove();
    if (!ok) throw new Error("copy refused");
  }

  return { find, render, handlers, showQuery, searchAgain: () => searchAgain(state.query) };
}
