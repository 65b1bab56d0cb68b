// Knowledge-team curation on the cards (issue 27): the mark each result carries ("Approved by
// Knowledge, 2026-11", "Deprecated: use 7.2 of the 2026 MSA") and, for members of the
// knowledge team only, a small form to mark a clause or its whole document.

import { h, text } from "./dom.js";

export const STATUSES = [
  ["approved", "Approved"],
  ["preferred", "Preferred"],
  ["deprecated", "Deprecated"],
  ["cleared", "Remove mark"],
];

/** The badge for a result's mark, or null when it has none. */
export function curationBadge(doc, result) {
  const mark = result?.curation && typeof result.curation === "object" ? result.curation : null;
  const label = text(mark?.label);
  if (!mark || !label) return null;
  const status = ["approved", "preferred", "deprecated"].includes(mark.status) ? mark.status : "approved";
  const why = text(mark.reason);
  const scope = mark.scope === "document" ? " (the whole document)" : "";
  return h(doc, "p", { className: `curation ${status}`, title: `${label}${scope}${why && !label.includes(why) ? `. ${why}` : ""}` },
    h(doc, "span", { className: "curation-icon", "aria-hidden": "true" }, status === "deprecated" ? "⚠" : "✓"), ` ${label}${scope}`);
}

/** Show `mark` (the server's answer) on `card` in place of its old badge. */
export function showMark(doc, card, result, mark) {
  result.curation = mark || undefined;
  card.querySelector(".curation")?.remove();
  const badge = curationBadge(doc, result);
  if (badge) card.querySelector(".source")?.after(badge);
}

/** "Mark for the team…": status, reason, replacement, clause or whole document. */
export function curationForm(doc, result, handlers) {
  const status = h(doc, "select", { name: "status", "aria-label": "Mark" }, STATUSES.map(([v, l]) => h(doc, "option", { value: v }, l)));
  const scope = h(doc, "select", { name: "scope", "aria-label": "Applies to" },
    h(doc, "option", { value: "clause" }, "This clause"), h(doc, "option", { value: "document" }, "Its whole document"));
  const reason = h(doc, "input", { type: "text", name: "reason", maxlength: "300", placeholder: "Reason (e.g. superseded by the 2026 form)" });
  const replacement = h(doc, "input", { type: "text", name: "replacement", maxlength: "200", placeholder: "Use instead (e.g. 7.2 of the 2026 MSA)" });
  const message = h(doc, "p", { className: "curation-message", role: "status" });
  const form = h(doc, "form", { className: "curation-form", onsubmit: async (e) => {
    e.preventDefault();
    message.textContent = "";
    const ok = await handlers.onCurate?.(result, { status: status.value, scope: scope.value, reason: reason.value.trim(), replacement: replacement.value.trim() }, message);
    if (ok) form.closest("details")?.removeAttribute("open");
  } }, status, scope, reason, replacement, h(doc, "button", { type: "submit", className: "secondary" }, "Save mark"), message);
  return h(doc, "details", { className: "curate" }, h(doc, "summary", {}, "Mark for the team…"), form);
}
