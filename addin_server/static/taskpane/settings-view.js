// The Settings form: server address, number of results, filters as pickers of the values the
// index holds (GET /api/v1/facets), AI rating on or off, API token.

import { h, text } from "./dom.js";
import { validateServerUrl } from "./settings.js";

const LABELS = {
  document: ["Only from document", "Any document"],
  doc_title: ["Only from document", "Any document"],
  type: ["Only of type", "Any type"],
  document_type: ["Only this kind of document", "Any kind of document"],
  governing_law: ["Only governed by", "Any governing law"],
  party_roles: ["Only with the party role", "Any party role"],
  section: ["Only section", "Any section"],
  heading: ["Only under heading", "Any heading"],
};
/** Fields shown when the server cannot list its values: typed by hand. */
export const FREE_TEXT_FIELDS = ["document", "type"];
const MAX_OPTIONS = 300;

/** [label, "any" option] for a filter field. */
export function fieldLabels(field) {
  if (LABELS[field]) return LABELS[field];
  const words = field.replace(/[_.-]+/g, " ").trim();
  return [`Only ${words}`, `Any ${words}`];
}

/** Facet fields in display order: document and type first, then the rest by name. */
export function facetFields(facets) {
  const fields = facets?.fields && typeof facets.fields === "object" ? facets.fields : {};
  const names = Object.keys(fields).filter((f) => Array.isArray(fields[f]) && fields[f].length);
  const rank = (f) => (f === "document" ? 0 : f === "type" || f === "document_type" ? 1 : 2);
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Build the filter pickers (or free-text fields) for `facets` with `chosen` values selected. */
export function renderFilterFields(doc, container, facets, chosen = {}) {
  container.replaceChildren();
  const fields = facetFields(facets);
  if (!fields.length) {
    for (const field of FREE_TEXT_FIELDS) {
      const [label, any] = fieldLabels(field);
      container.append(
        h(doc, "div", { className: "field" },
          h(doc, "label", { for: `s-f-${field}` }, label),
          h(doc, "input", { id: `s-f-${field}`, type: "text", autocomplete: "off", placeholder: any, value: chosen[field] || "", dataset: { field } })),
      );
    }
    container.append(h(doc, "p", { className: "field-hint" }, "The server did not list its documents and types, so type a name as it appears in the results."));
    return;
  }
  for (const field of fields) {
    const [label, any] = fieldLabels(field);
    const values = facets.fields[field].filter((v) => v && text(v.value)).slice(0, MAX_OPTIONS);
    const select = h(doc, "select", { id: `s-f-${field}`, dataset: { field } }, h(doc, "option", { value: "" }, any));
    for (const v of values) {
      const count = Number.isInteger(v.count) ? ` (${v.count})` : "";
      select.append(h(doc, "option", { value: text(v.value) }, `${text(v.value)}${count}`));
    }
    const current = chosen[field] || "";
    if (current && !values.some((v) => text(v.value) === current)) {
      select.append(h(doc, "option", { value: current }, `${current} (not in the library now)`));
    }
    select.value = current;
    container.append(h(doc, "div", { className: "field" }, h(doc, "label", { for: `s-f-${field}` }, label), select));
  }
}

/** The filters chosen in the form: {field: value} without empty ones. */
export function readFilterFields(container) {
  const out = {};
  for (const input of container.querySelectorAll("[data-field]")) {
    const value = String(input.value || "").trim();
    if (value) out[input.dataset.field] = value;
  }
  return out;
}

/** Open/close and save the settings form over `ctx` ({doc, deps, ui, state, feedback, onSaved}). */
export function createSettingsView(ctx) {
  const { doc, deps, ui, state } = ctx;

  function renderRerank() {
    const caps = state.capabilities.rerank;
    const serverDefault = caps.default;
    ui.rerank.checked = state.settings.rerank ?? serverDefault ?? false;
    ui.rerank.disabled = !caps.available;
    ui.rerankHint.textContent = caps.available
      ? "Slower: the drafting assistant rates each precedent's fit from 1 to 5."
      : `Not available: ${caps.reason}`;
  }

  /** Work-account sign-in replaces the API token field when the server uses it. */
  function renderAccount() {
    const signingIn = Boolean(state.auth);
    ui.tokenField.hidden = signingIn;
    ui.account.hidden = !signingIn;
    if (!signingIn) return;
    const who = state.auth.account();
    ui.account.replaceChildren(
      h(doc, "span", { className: "field-label" }, "Work account"),
      h(doc, "p", { className: "field-hint" }, who ? `Signed in as ${who}.` : "This server asks you to sign in with your work account."),
      who ? "" : h(doc, "button", { type: "button", className: "secondary", onclick: () => ctx.signIn?.() }, "Sign in"),
    );
  }

  function open(show) {
    ui.settingsForm.hidden = !show;
    ui.settingsToggle.setAttribute("aria-expanded", String(show));
    if (show) {
      const s = state.settings;
      ui.server.value = s.serverUrl;
      ui.topK.value = String(s.topK);
      renderFilterFields(doc, ui.filters, state.facets, s.filters);
      renderRerank();
      renderAccount();
      ui.token.value = s.apiToken;
      ui.settingsError.textContent = "";
      ui.server.focus();
    } else {
      ui.settingsToggle.focus();
    }
  }

  async function save(event) {
    event.preventDefault();
    const problem = validateServerUrl(ui.server.value);
    if (problem) {
      ui.settingsError.textContent = problem;
      ui.server.focus();
      return;
    }
    const before = state.settings;
    const rerankDefault = state.capabilities.rerank.default ?? false;
    try {
      state.settings = await deps.settingsStore.save({
        serverUrl: ui.server.value,
        topK: ui.topK.value,
        filters: readFilterFields(ui.filters),
        // Only a choice that differs from the server's default is remembered as a choice.
        rerank: ui.rerank.disabled ? before.rerank : ui.rerank.checked === rerankDefault && before.rerank === null ? null : ui.rerank.checked,
        apiToken: ui.token.value,
      });
    } catch (err) {
      ui.settingsError.textContent = `Settings not saved: ${err.message}`;
      return;
    }
    open(false);
    ctx.feedback.setStatus("Settings saved.");
    if (before.serverUrl !== state.settings.serverUrl || before.apiToken !== state.settings.apiToken) ctx.onServerChanged?.();
  }

  return { open, save, renderRerank, renderAccount };
}
