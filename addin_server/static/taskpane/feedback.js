// The pane's feedback to the lawyer: the status line, the error bar, and which buttons can be
// used (busy, nothing searched yet, what the server cannot do, what has already been done).

import { ApiError } from "./api.js";
import { logForIt, wordErrorMessage } from "./messages.js";
import { h, plural } from "./dom.js";

/** The elements the pane works with, by id. */
export function getUi(doc) {
  const $ = (id) => doc.getElementById(id);
  return {
    find: $("find"),
    explore: $("explore"),
    moreLike: $("more-like"),
    variationsSection: $("variations-section"),
    variationsSummary: $("variations-summary"),
    variations: $("variations"),
    cancel: $("cancel"),
    status: $("status"),
    spinner: $("spinner"),
    error: $("error"),
    query: $("query"),
    resultsSection: $("results-section"),
    results: $("results"),
    rerankNote: $("rerank-note"),
    facetChips: $("facet-chips"),
    redraftSection: $("redraft-section"),
    redraftButton: $("redraft"),
    redraftUnavailable: $("redraft-unavailable"),
    instructions: $("instructions"),
    redraftOutput: $("redraft-output"),
    redraftView: $("redraft-view"),
    apply: $("apply"),
    discard: $("discard"),
    settingsToggle: $("settings-toggle"),
    settingsForm: $("settings"),
    settingsClose: $("settings-close"),
    settingsError: $("settings-error"),
    server: $("s-server"),
    topK: $("s-topk"),
    filters: $("s-filters"),
    rerank: $("s-rerank"),
    rerankHint: $("s-rerank-hint"),
    token: $("s-token"),
    tokenField: $("s-token-field"),
    account: $("s-account"),
  };
}

/** Status, errors, busy state and the buttons' enabled/disabled state over `ctx` ({ui, state, deps}). */
export function createFeedback(ctx) {
  const { ui, state, deps } = ctx;

  function setStatus(text) {
    ui.status.textContent = text;
  }

  /** Show `message` in the error bar (empty hides it), with an optional {label, run} button. */
  function showError(message, action = null) {
    ui.error.textContent = message;
    if (message && action) ui.error.append(" ", h(ctx.doc, "button", { type: "button", className: "link", onclick: action.run }, action.label));
    ui.error.hidden = !message;
  }

  /** The fix offered with an error: Sign in when the server wants the lawyer's work account. */
  function actionFor(err) {
    return err instanceof ApiError && err.code === "sign_in_required" && ctx.signIn ? { label: "Sign in", run: ctx.signIn } : null;
  }

  function refreshButtons() {
    const busy = Boolean(state.busy) || state.editing;
    const caps = state.capabilities;
    ui.find.disabled = busy || !deps.canRead || !caps.search;
    ui.explore.disabled = busy || !state.query;
    ui.moreLike.disabled = busy || state.picked.size === 0;
    ui.redraftButton.disabled = busy || !state.query || !caps.redraft.available;
    ui.redraftButton.title = caps.redraft.available ? "" : caps.redraft.reason;
    ui.redraftUnavailable.textContent = caps.redraft.available ? "" : `Redraft is not available: ${caps.redraft.reason}`;
    ui.redraftUnavailable.hidden = caps.redraft.available;
    const applied = Boolean(state.redraft?.applied);
    ui.apply.disabled = busy || !deps.canEdit || !state.redraft || applied;
    ui.apply.textContent = applied ? "Applied ✓" : state.redraft?.confirming ? "Apply anyway" : "Apply to document";
    ui.apply.classList.toggle("done", applied);
    ui.apply.title = deps.canEdit ? (applied ? "This redraft is in your document" : "") : deps.editMessage || "";
    ui.cancel.hidden = !state.busy;
    ui.spinner.hidden = !state.busy;
    const n = state.picked.size;
    ui.redraftButton.textContent = n ? `Redraft with ${plural(n, "precedent")}` : "Redraft";
    for (const button of ui.results.querySelectorAll("button[data-action=insert]")) {
      const inserted = button.closest(".card")?.dataset.clauseId === state.inserted;
      button.disabled = busy || !deps.canEdit || inserted;
      button.textContent = inserted ? "Inserted ✓" : state.inserted || applied ? "Insert instead" : "Insert";
      button.classList.toggle("done", inserted);
    }
  }

  /** Run a server request with the busy state, Cancel, and errors shown inline. */
  async function withRequest(label, work) {
    if (state.busy || state.editing) return;
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
        showError(requestErrorMessage(err), actionFor(err));
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

  return { setStatus, showError, actionFor, refreshButtons, withRequest, withEdit };
}

/** An ApiError's message is already for the lawyer; anything else is a bug, logged for IT. */
export function requestErrorMessage(err) {
  if (err instanceof ApiError) return err.message;
  logForIt("", String(err?.stack || err), "Precedent (pane)");
  return "Something went wrong in the pane. Close and reopen it; if it happens again, tell IT.";
}
