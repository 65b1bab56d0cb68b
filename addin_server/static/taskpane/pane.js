// The pane's behaviour: what each button does, what is shown while it works, and the plain
// words shown when it fails. Everything it needs from outside (Word.run, fetch, storage,
// the clipboard, the page) is passed in by app.js, so a test page can drive it with fakes.

import { ApiError, createApiClient, resolveBaseUrl } from "./api.js";
import { diffStats, diffWords } from "./blackline.js";
import { prepareRedraft } from "./citations.js";
import {
  h,
  renderBlackline,
  renderClauseContext,
  renderRedraft,
  renderResultCard,
  rerankNote,
  truncate,
} from "./render.js";
import { filtersFromSettings, validateServerUrl } from "./settings.js";
import { SelectionChangedError, applyRedraft, clauseKey, insertPrecedent, readSelection } from "./word.js";

/** Longest selection sent to the server; the server has its own limit and says so. */
export const MAX_SELECTION_CHARS = 20_000;

/** Why `text` cannot be searched for, or "" when it can. */
export function checkQueryText(text) {
  const key = clauseKey(text);
  if (!key) {
    return "Nothing is selected. Select a clause in the document (or click in its paragraph), then click Find precedent.";
  }
  if (key.length > MAX_SELECTION_CHARS) {
    return `The selection is ${key.length.toLocaleString("en-US")} characters long; Precedent searches one clause at a time (at most ${MAX_SELECTION_CHARS.toLocaleString("en-US")} characters). Select a single clause.`;
  }
  return "";
}

/** A failure from Word (OfficeExtension.Error or other) in plain words. */
export function wordErrorMessage(err, doing) {
  if (err instanceof SelectionChangedError) return err.message;
  const detail = err?.message ? ` (${err.message})` : "";
  return `Word could not ${doing}${detail}. Click in the document and try again.`;
}

/**
 * Wire the pane into `doc` (the task pane's document).
 * deps: {run, settingsStore, fetchImpl, origin, clipboard, canRead, canEdit, editMessage}
 */
export function createPane(doc, deps) {
  const $ = (id) => doc.getElementById(id);
  const ui = {
    find: $("find"),
    cancel: $("cancel"),
    status: $("status"),
    spinner: $("spinner"),
    error: $("error"),
    query: $("query"),
    resultsSection: $("results-section"),
    results: $("results"),
    rerankNote: $("rerank-note"),
    redraftSection: $("redraft-section"),
    redraftButton: $("redraft"),
    instructions: $("instructions"),
    redraftOutput: $("redraft-output"),
    redraftText: $("redraft-text"),
    citations: $("citations"),
    apply: $("apply"),
    discard: $("discard"),
    settingsToggle: $("settings-toggle"),
    settingsForm: $("settings"),
    settingsClose: $("settings-close"),
    settingsError: $("settings-error"),
    server: $("s-server"),
    topK: $("s-topk"),
    filterDocument: $("s-document"),
    filterType: $("s-type"),
    token: $("s-token"),
  };

  const state = {
    settings: deps.settingsStore.load(),
    query: null, // {text, source}: the clause searched for, compared again before any edit
    results: [],
    picked: new Set(),
    redraft: null, // {answer, prepared}
    busy: null, // AbortController of the request in flight
    editing: false, // a Word edit is in progress
  };

  const api = () =>
    createApiClient({
      baseUrl: resolveBaseUrl(state.settings.serverUrl, deps.origin),
      token: state.settings.apiToken,
      fetchImpl: deps.fetchImpl,
    });

  // ---- status, errors, busy ---------------------------------------------------------------

  function setStatus(text) {
    ui.status.textContent = text;
  }

  function showError(message) {
    ui.error.textContent = message;
    ui.error.hidden = !message;
  }

  function refreshButtons() {
    const busy = Boolean(state.busy) || state.editing;
    ui.find.disabled = busy || !deps.canRead;
    ui.redraftButton.disabled = busy || !state.query;
    ui.apply.disabled = busy || !deps.canEdit || !state.redraft;
    ui.apply.title = deps.canEdit ? "" : deps.editMessage || "";
    ui.cancel.hidden = !state.busy;
    ui.spinner.hidden = !state.busy;
    const n = state.picked.size;
    ui.redraftButton.textContent = n ? `Redraft with ${n} precedent${n === 1 ? "" : "s"}` : "Redraft";
  }

  /** Run a server request with the busy state, Cancel, and errors shown inline. */
  async function withRequest(label, work) {
    if (state.busy) return;
    const controller = new AbortController();
    state.busy = controller;
    showError("");
    setStatus(label);
    refreshButtons();
    try {
      await work(controller.signal);
    } catch (err) {
      if (err instanceof ApiError && err.kind === "cancelled") setStatus("Cancelled.");
      else {
        setStatus("");
        showError(err instanceof ApiError ? err.message : `Something went wrong: ${err?.message || err}`);
      }
    } finally {
      state.busy = null;
      refreshButtons();
    }
  }

  /** Run a Word edit with the buttons disabled while it works. */
  async function withEdit(doing, work) {
    if (state.editing || state.busy) return;
    state.editing = true;
    showError("");
    refreshButtons();
    try {
      await work();
    } catch (err) {
      setStatus("");
      showError(wordErrorMessage(err, doing));
    } finally {
      state.editing = false;
      refreshButtons();
    }
  }

  // ---- find ---------------------------------------------------------------------------------

  async function find() {
    if (state.busy || state.editing) return;
    showError("");
    let selection;
    try {
      selection = await readSelection(deps.run);
    } catch (err) {
      showError(wordErrorMessage(err, "read the selection"));
      return;
    }
    const problem = checkQueryText(selection.text);
    if (problem) {
      setStatus("");
      showError(problem);
      return;
    }
    state.query = { text: selection.text, source: selection.source };
    // Results of an earlier search belong to an earlier clause: clear them first.
    state.results = [];
    state.picked.clear();
    discardRedraft();
    ui.results.replaceChildren();
    ui.resultsSection.hidden = true;
    ui.redraftSection.hidden = true;
    showQuery();
    await withRequest("Searching precedents…", async (signal) => {
      const data = await api().findPrecedents(
        { text: clauseKey(selection.text), topK: state.settings.topK, filters: filtersFromSettings(state.settings) },
        { signal },
      );
      state.results = Array.isArray(data.results) ? data.results : [];
      renderResults(data.rerank);
      const n = state.results.length;
      setStatus(n ? `${n} precedent${n === 1 ? "" : "s"} found.` : "No precedents found. Try selecting more of the clause, or clear the filters in Settings.");
    });
  }

  function showQuery() {
    const words = clauseKey(state.query.text).split(" ").length;
    const from = state.query.source === "paragraph" ? "paragraph at the cursor" : "selected text";
    ui.query.replaceChildren(
      h(doc, "span", { className: "query-label" }, `Your clause (${from}, ${words} word${words === 1 ? "" : "s"}):`),
      h(doc, "q", {}, truncate(state.query.text, 160)),
    );
    ui.query.hidden = false;
  }

  function renderResults(rerank) {
    ui.results.replaceChildren(
      ...state.results.map((result) =>
        renderResultCard(doc, result, handlers, {
          canEdit: deps.canEdit,
          editMessage: deps.editMessage,
          selected: state.picked.has(result.clause_id),
        }),
      ),
    );
    ui.rerankNote.textContent = rerankNote(rerank);
    ui.resultsSection.hidden = false;
    ui.redraftSection.hidden = state.results.length === 0;
    refreshButtons();
  }

  // ---- per-result actions --------------------------------------------------------------

  const handlers = {
    onSelect(result, checked) {
      if (checked) state.picked.add(result.clause_id);
      else state.picked.delete(result.clause_id);
      refreshButtons();
    },

    async onInsert(result) {
      if (!state.query) return showError("Click Find precedent first.");
      await withEdit("insert the precedent", async () => {
        const { source } = await insertPrecedent(deps.run, { expectedText: state.query.text, text: result.text });
        const what = source === "paragraph" ? "the paragraph" : "the selection";
        setStatus(`Inserted the precedent in place of ${what} as a tracked change.`);
      });
    },

    onCompare(result, card) {
      const area = card.querySelector(".blackline");
      const button = [...card.querySelectorAll(".actions button")].find((b) => b.textContent === "Compare" || b.textContent === "Hide comparison");
      if (!area.hidden) {
        area.hidden = true;
        button?.setAttribute("aria-expanded", "false");
        if (button) button.textContent = "Compare";
        return;
      }
      if (!state.query) return showError("Click Find precedent first.");
      const segments = diffWords(state.query.text, result.text);
      renderBlackline(doc, area, segments, diffStats(segments));
      area.hidden = false;
      button?.setAttribute("aria-expanded", "true");
      if (button) button.textContent = "Hide comparison";
    },

    async onCopy(result) {
      showError("");
      try {
        await copyText(result.text);
        setStatus("Precedent copied to the clipboard.");
      } catch {
        showError("The pane could not use the clipboard. Open Show full clause and copy the text by hand.");
      }
    },

    async onExpand(result, card) {
      const full = card.querySelector(".full");
      const button = card.querySelector("button.link");
      const open = full.hidden;
      full.hidden = !open;
      button.setAttribute("aria-expanded", String(open));
      button.textContent = open ? "Hide full clause" : "Show full clause";
      card.querySelector(".snippet").hidden = open;
      if (!open || full.dataset.loaded) return;
      renderClauseContext(doc, full, null, result.text);
      full.dataset.loaded = "1";
      try {
        const data = await api().getClause(result.clause_id);
        renderClauseContext(doc, full, data, result.text);
      } catch (err) {
        // The clause itself is already shown; only its surrounding clauses are missing.
        full.append(h(doc, "p", { className: "field-error" }, `Surrounding clauses not shown: ${err.message}`));
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

  // ---- redraft ------------------------------------------------------------------------------

  async function redraft() {
    if (!state.query) return showError("Click Find precedent first.");
    await withRequest("Redrafting with the chosen precedents… this can take a minute.", async (signal) => {
      const answer = await api().redraft(
        { text: clauseKey(state.query.text), clauseIds: [...state.picked], instructions: ui.instructions.value.trim() },
        { signal },
      );
      state.redraft = { answer, prepared: prepareRedraft(answer) };
      renderRedraft(doc, ui.redraftText, ui.citations, answer);
      ui.redraftOutput.hidden = false;
      const n = (answer.citations || []).length;
      setStatus(`Redraft ready with ${n} citation${n === 1 ? "" : "s"}. Review it, then Apply to put it in the document.`);
    });
  }

  async function apply() {
    if (!state.redraft || !state.query) return;
    const { prepared } = state.redraft;
    await withEdit("apply the redraft", async () => {
      const { placed } = await applyRedraft(deps.run, {
        expectedText: state.query.text,
        text: prepared.text,
        comments: prepared.comments,
      });
      const loose = placed.filter((p) => p.anchoredOn !== "sentence").length;
      let message = `Redraft applied as a tracked change with ${placed.length} comment${placed.length === 1 ? "" : "s"}.`;
      if (loose) message += ` ${loose} could not be matched to its sentence and is on the whole clause.`;
      setStatus(message);
    });
  }

  function discardRedraft() {
    state.redraft = null;
    ui.redraftOutput.hidden = true;
    ui.redraftText.replaceChildren();
    ui.citations.replaceChildren();
    refreshButtons();
  }

  // ---- settings -----------------------------------------------------------------------------

  function openSettings(open) {
    ui.settingsForm.hidden = !open;
    ui.settingsToggle.setAttribute("aria-expanded", String(open));
    if (open) {
      const s = state.settings;
      ui.server.value = s.serverUrl;
      ui.topK.value = String(s.topK);
      ui.filterDocument.value = s.filterDocument;
      ui.filterType.value = s.filterType;
      ui.token.value = s.apiToken;
      ui.settingsError.textContent = "";
      ui.server.focus();
    } else {
      ui.settingsToggle.focus();
    }
  }

  async function saveSettings(event) {
    event.preventDefault();
    const problem = validateServerUrl(ui.server.value);
    if (problem) {
      ui.settingsError.textContent = problem;
      ui.server.focus();
      return;
    }
    try {
      state.settings = await deps.settingsStore.save({
        serverUrl: ui.server.value,
        topK: ui.topK.value,
        filterDocument: ui.filterDocument.value,
        filterType: ui.filterType.value,
        apiToken: ui.token.value,
      });
    } catch (err) {
      ui.settingsError.textContent = `Settings not saved: ${err.message}`;
      return;
    }
    openSettings(false);
    setStatus("Settings saved.");
  }

  // ---- wiring -------------------------------------------------------------------------------

  ui.find.addEventListener("click", find);
  ui.cancel.addEventListener("click", () => state.busy?.abort());
  ui.redraftButton.addEventListener("click", redraft);
  ui.apply.addEventListener("click", apply);
  ui.discard.addEventListener("click", () => {
    discardRedraft();
    setStatus("Redraft discarded.");
  });
  ui.settingsToggle.addEventListener("click", () => openSettings(ui.settingsForm.hidden));
  ui.settingsClose.addEventListener("click", () => openSettings(false));
  ui.settingsForm.addEventListener("submit", saveSettings);
  doc.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && state.busy) state.busy.abort();
  });
  refreshButtons();

  return { find, redraft, apply, state };
}
