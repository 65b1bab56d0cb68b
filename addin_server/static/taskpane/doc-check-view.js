// Check document: the document check's findings in the pane, grouped by kind, each one a
// button that selects its place in the document. Reads the document through document.js;
// nothing is sent to the server.

import { KINDS, checkDocument } from "./doc-check.js";
import { documentProfile } from "./document-profile.js";
import { goToParagraph, readParagraphs } from "./document.js";
import { h, plural } from "./dom.js";

/** The view over `ctx` ({doc, deps, ui, state, feedback}); ui.check and ui.checkSection. */
export function createDocCheck(ctx) {
  const { doc, deps, ui } = ctx;
  const fb = ctx.feedback;

  async function check() {
    if (ctx.state.busy || ctx.state.editing) return;
    fb.showError("");
    fb.setStatus("Checking your document…");
    let paragraphs;
    try {
      paragraphs = await readParagraphs(deps.run, { batchSize: 200 });
    } catch {
      fb.setStatus("");
      return fb.showError("The pane could not read your document. Click in the document and try again.");
    }
    const profile = documentProfile(paragraphs);
    const findings = checkDocument(paragraphs, { parties: profile.parties.map((p) => p.term) });
    render(findings, profile, paragraphs.length);
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
