// Drawing a blackline (from blackline.js compareTexts) with its one-line summary.

import { h } from "./dom.js";

/** Show `comparison` ({segments, summary}) in `container`. */
export function renderBlackline(doc, container, comparison) {
  container.replaceChildren(
    h(doc, "p", { className: "blackline-summary" }, comparison.summary),
    h(doc, "p", { className: "blackline-text" }, blacklineNodes(doc, comparison.segments)),
  );
}

/**
 * Nodes for a blackline. The space before a changed phrase is left outside <ins>/<del>, so
 * underlines and strike-throughs cover words only; a deletion directly followed by an
 * insertion gets a space between them, so "Customer" and "other" do not run together.
 */
export function blacklineNodes(doc, segments) {
  const nodes = [];
  segments.forEach((s, i) => {
    if (s.type === "equal") {
      nodes.push(doc.createTextNode(s.text));
      return;
    }
    const lead = s.text.match(/^\s*/)[0];
    const body = s.text.slice(lead.length);
    const prev = segments[i - 1];
    if (lead) nodes.push(doc.createTextNode(lead));
    else if (s.type === "insert" && prev?.type === "delete") nodes.push(doc.createTextNode(" "));
    if (body) {
      const label = s.type === "insert" ? "added" : "removed";
      nodes.push(h(doc, s.type === "insert" ? "ins" : "del", { title: label }, body));
    }
  });
  return nodes;
}
