// Check document: the document check's findings in the pane, grouped by kind, each one a
// button that selects its place in the document. The pane collects the document's paragraphs
// (document-profile.js) and the server reads and checks them with the clause-reading core
// (POST /api/v1/document/check, addin_server/conform/check.py): one reader of terms, the
// same one conforming uses. The findings name paragraphs by Word's index.

import { ApiError } from "./api.js";
import { withServerDocument } from "./document-profile.js";
import { goToParagraph } from "./document.js";
import { h, plural } from "./dom.js";

export const KINDS = Object.freeze({
  undefined: "Used but not defined",
  "defined-twice": "Defined twice, differently",
  unused: "Defined but not used",
  capitalisation: "Inconsistent capitals",
  "missing-section": "Refers to a missing section",
});

/** The view over `ctx` ({doc, deps, ui, state, feedback}); ui.check and ui.checkSection. */
export function createDocCheck(ctx) {
  const { doc, deps, ui } = ctx;
  const fb = ctx.feedback;

  async function check() {
    if (ctx.state.busy || ctx.state.editing) return;
    fb.showError("");
    fb.setStatus("Checking your document…");
    let answer;
    try {
      answer = await withServerDocument(ctx, (document) => ctx.api().checkDocument({ document }));
    } catch (err) {
      fb.setStatus("");
      if (err instanceof ApiError && err.kind === "http" && err.status !== 404) return fb.showError(err.message);
      if (err instanceof ApiError) return fb.showError(`Check document needs the Precedent server: ${err.message}`);
      return fb.showError("The pane could not read your document. Click in the document and try again.");
    }
    const findings = Array.isArray(answer?.findings) ? answer.findings.filter((f) => f && KINDS[f.kind] && Number.isInteger(f.index)) : [];
    const profile = answer?.profile ?? { definitions: [], sections: [], paragraphs: 0 };
    render(findings, profile, profile.paragraphs);
    fb.setStatus(findings.length ? `${plural(findings.length, "thing")} to check in your document.` : "No problems found in your document's definitions and cross-references.");
  }

  function render(findings, profile, count) {
    const box = ui.checkList;
    const summary = `${plural(count, "paragraph")}, ${plural(new Set(profile.definitions.map((d) => d.term)).size, "defined term")}, ${plural(profile.sections.length, "numbered section")} read.`;
    const groups = Object.entries(KINDS).map(([kind, label]) => {
      const items = findings.filter((f) => f.kind === kind);
      if (!items.length) return null;
      return h(doc, "details", { className: "check-group", open: true, dataset: { kind } },
        h(doc, "summary", {}, `${label} (${items.length})`),
        h(doc, "ul", {}, items.map((f) => h(doc, "li", {},
          h(doc, "button", { type: "button", className: "link check-item", title: "Select it in the document", onclick: () => go(f) }, f.message)))));
    });
    box.replaceChildren(h(doc, "p", { className: "note" }, summary),
      ...(findings.length ? groups.filter(Boolean) : [h(doc, "p", { className: "check-clean" }, "No undefined or duplicate terms, and every cross-reference points at a section this document has.")]));
    if (!profile.definitions.length) box.append(h(doc, "p", { className: "note" }, "This document defines no terms in quotation marks (\u201cX\u201d means \u2026), so only cross-references and capitals were checked."));
    ui.checkSection.hidden = false;
  }

  async function go(finding) {
    try {
      const found = await goToParagraph(deps.run, finding.index, finding.search);
      if (!found) fb.showError("That paragraph is no longer in the document. Click Check document again.");
    } catch {
      fb.showError("The pane could not select it in the document. Click Check document again.");
    }
  }

  return { check };
}
