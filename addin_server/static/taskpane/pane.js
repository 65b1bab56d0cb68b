// The pane: puts the state, the feedback, the flows (find, redraft, settings) together and wires
// the page's buttons to them. Everything from outside (Word.run, fetch, storage, the clipboard)
// is passed in by app.js, so a test page can drive it with fakes.
//
//   state.js        what was searched, found, picked and done; what the server can do
//   feedback.js     status line, error bar, busy state, which buttons are usable
//   results.js      Find precedent and each card's Insert / Compare / Copy / Show full clause
//   redraft-flow.js Redraft, Apply, Discard
//   settings-view.js the Settings form (filters as pickers of the index's values)
//   capabilities.js what /health says this server can do
//   explore.js      the library's wordings of the clause; more results like the ticked ones
//   market-view.js  the clause's terms against our precedents; the whole document's stand-outs
//   conform-view.js Insert conformed to the document's parties, terms and cross-references
//   doc-check-view.js Check document: undefined/duplicate/unused terms, broken references
//   usage.js        what the lawyer did with results, for the ranker to learn (never text)
//   curation-view.js the knowledge team's marks on cards, and their form
//   follow.js       suggestions as the lawyer types (the paragraph at the cursor), strict mode

import { ApiError, createApiClient, resolveBaseUrl } from "./api.js";
import { authModeFrom, createEntraAuth } from "./auth.js";
import { capabilitiesFrom } from "./capabilities.js";
import { createConform } from "./conform-view.js";
import { createDocCheck } from "./doc-check-view.js";
import { createExplore } from "./explore.js";
import { createFeedback, getUi } from "./feedback.js";
import { createMarket } from "./market-view.js";
import { createFollow } from "./follow.js";
import { createRedraft } from "./redraft-flow.js";
import { createResults } from "./results.js";
import { createSettingsView } from "./settings-view.js";
import { createState } from "./state.js";
import { createUsage } from "./usage.js";

export { MAX_SELECTION_CHARS, checkQueryText, wordErrorMessage } from "./messages.js";

/**
 * Wire the pane into `doc` (the task pane's document).
 * deps: {run, settingsStore, fetchImpl, origin, clipboard, canRead, canEdit, editMessage,
 *        office (window.Office, for sign-in and cursor events), loadMsal (tests: a stand-in
 *        for MSAL), storage (localStorage, for the lawyer's follow choices)}
 */
export function createPane(doc, deps) {
  const ui = getUi(doc);
  const state = createState(deps.settingsStore.load());
  const ctx = { doc, deps, ui, state };
  ctx.api = () =>
    createApiClient({
      baseUrl: resolveBaseUrl(state.settings.serverUrl, deps.origin),
      token: state.settings.apiToken,
      getToken: state.auth ? () => state.auth.getToken() : null,
      fetchImpl: deps.fetchImpl,
    });
  ctx.feedback = createFeedback(ctx);
  ctx.usage = createUsage(ctx);
  ctx.redraft = createRedraft(ctx);
  ctx.results = createResults(ctx);
  ctx.settings = createSettingsView(ctx);
  ctx.explore = createExplore(ctx);
  ctx.market = createMarket(ctx);
  ctx.conform = createConform(ctx); // Insert conformed to the document (issue 23)
  ctx.docCheck = createDocCheck(ctx);
  ctx.follow = createFollow(ctx); // suggestions as the lawyer types, strict mode (issue 31)
  ctx.onServerChanged = () => loadServerInfo();

  /** Interactive sign-in with the work account (from a click), then say who is signed in. */
  ctx.signIn = async () => {
    if (!state.auth) return;
    try {
      await state.auth.signIn();
      ctx.feedback.showError("");
      const who = state.auth.account();
      ctx.feedback.setStatus(`Signed in${who ? ` as ${who}` : ""}. Click Find precedent.`);
      ctx.settings.renderAccount();
      if (!state.capabilities.known) await loadCapabilities();
    } catch (err) {
      ctx.feedback.showError(err?.message || "Sign-in did not complete. Try again.", { label: "Sign in", run: ctx.signIn });
    }
  };

  /** How this server signs users in: a work account (Entra ID), or an API token in Settings. */
  async function loadAuth() {
    state.auth = null;
    let config = null;
    try {
      config = await ctx.api().authConfig();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err; // older server: API tokens
    }
    const auth = authModeFrom(config);
    state.authMode = auth.mode;
    if (auth.mode === "entra") {
      const base = resolveBaseUrl("", deps.origin);
      state.auth = createEntraAuth(auth.entra, { office: deps.office, dialogUrl: `${base}/taskpane/signin.html`, loadMsal: deps.loadMsal });
    } else if (auth.mode === "misconfigured") {
      ctx.feedback.showError("Sign-in is not set up correctly on this server. Ask IT to check its sign-in settings.");
    }
  }

  /** How to sign in, what the server can do, which filter values it holds; says so if it cannot be reached. */
  async function loadServerInfo() {
    try {
      await loadAuth();
    } catch (err) {
      if (!state.busy) ctx.feedback.showError(err.message);
      return;
    }
    await loadCapabilities();
  }

  async function loadCapabilities() {
    const api = ctx.api();
    try {
      const health = await api.health();
      state.capabilities = capabilitiesFrom(health);
      ctx.usage.fromHealth(health);
    } catch (err) {
      // The first Find will say the same, but the lawyer should not have to click to learn it.
      if (!state.busy) ctx.feedback.showError(err.message, ctx.feedback.actionFor(err));
      return;
    }
    ctx.feedback.refreshButtons();
    ctx.follow.render();
    if (!ui.settingsForm.hidden) ctx.settings.renderRerank();
    try {
      state.facets = await api.facets();
    } catch {
      state.facets = null; // older server: filters stay free text
    }
  }

  ui.find.addEventListener("click", ctx.results.find);
  ui.explore.addEventListener("click", ctx.explore.explore);
  ui.check?.addEventListener("click", ctx.docCheck.check);
  ui.moreLike.addEventListener("click", ctx.explore.moreLikeThese);
  doc.getElementById("market").addEventListener("click", ctx.market.compare);
  doc.getElementById("market-document").addEventListener("click", ctx.market.checkDocument);
  ui.cancel.addEventListener("click", () => state.busy?.abort());
  ui.redraftButton.addEventListener("click", ctx.redraft.redraft);
  ui.apply.addEventListener("click", ctx.redraft.apply);
  ui.discard.addEventListener("click", () => {
    ctx.redraft.discard();
    ctx.feedback.setStatus("Redraft discarded.");
  });
  ui.settingsToggle.addEventListener("click", () => ctx.settings.open(ui.settingsForm.hidden));
  ui.settingsClose.addEventListener("click", () => ctx.settings.open(false));
  ui.settingsForm.addEventListener("submit", ctx.settings.save);
  doc.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && state.busy) state.busy.abort();
  });
  ctx.feedback.refreshButtons();
  const ready = loadServerInfo();

  return { find: ctx.results.find, redraft: ctx.redraft.redraft, apply: ctx.redraft.apply, state, ready };
}
