// The redraft as a lawyer checks it: the proposed clause with each citation numbered like the
// card it points to, sentences no precedent backs marked, flagged citations called out, the
// passage each citation relies on, what the server removed or left out and why, and a
// blackline against the lawyer's own clause.

import { compareTexts } from "./blackline.js";
import { renderBlackline } from "./compare-view.js";
import { sourceText } from "./cards.js";
import { flagFor } from "./citations.js";
import { append, h, plural, text } from "./dom.js";

const MARKER = /\[(\d+)\]/g;

/** Valid [start, end) spans of `items` in `redraft` (offsets checked against the sentence). */
export function spansIn(redraft, items) {
  const out = [];
  for (const item of Array.isArray(items) ? items : []) {
    if (!item || typeof item !== "object") continue;
    let { start, end } = item;
    const sentence = text(item.sentence);
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end > start && end <= redraft.length) ||
        (sentence && redraft.slice(start, end).trim() !== sentence)) {
      const at = sentence ? redraft.indexOf(sentence) : -1;
      if (at < 0) continue;
      start = at;
      end = at + sentence.length;
    }
    out.push({ start, end, item });
  }
  return out;
}

/**
 * The redraft cut into pieces [{text, marker?: n, uncited, flagged}] at markers and at the
 * edges of uncited and flagged sentences.
 */
export function redraftPieces(answer) {
  const redraft = typeof answer?.redraft === "string" ? answer.redraft : "";
  const uncited = spansIn(redraft, answer?.uncited_sentences);
  const flagged = spansIn(redraft, answer?.flagged);
  const cuts = new Set([0, redraft.length]);
  for (const s of [...uncited, ...flagged]) cuts.add(s.start).add(s.end);
  for (const m of redraft.matchAll(MARKER)) cuts.add(m.index).add(m.index + m[0].length);
  const points = [...cuts].sort((a, b) => a - b);
  const inside = (spans, at) => spans.some((s) => s.start <= at && at < s.end);
  const pieces = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [from, to] = [points[i], points[i + 1]];
    const piece = redraft.slice(from, to);
    const marker = piece.match(/^\[(\d+)\]$/);
    pieces.push({
      text: piece,
      marker: marker ? Number(marker[1]) : null,
      uncited: inside(uncited, from),
      flagged: inside(flagged, from),
    });
  }
  return pieces;
}

/**
 * Show a redraft in `container`. `cardOf(clauseId)` gives the card number [n] of a result in
 * the list (or null); `original` is the lawyer's clause (for the blackline); `lawyerText` is
 * the text without markers that Apply would insert.
 */
export function renderRedraft(doc, container, answer, { cardOf = () => null, original = "", lawyerText = "" } = {}) {
  const citations = (Array.isArray(answer?.citations) ? answer.citations : []).filter((c) => c && typeof c === "object");
  const precedents = Array.isArray(answer?.precedents) ? answer.precedents : [];
  const clauseOfN = (n) =>
    citations.find((c) => c.n === n)?.clause_id || precedents.find((p) => p?.n === n)?.clause_id || null;
  const shownN = (n) => cardOf(clauseOfN(n)) ?? n;

  const textNode = h(doc, "p", { className: "redraft-text", id: "redraft-text", dir: "auto" });
  for (const piece of redraftPieces(answer)) {
    if (piece.marker !== null) {
      const n = shownN(piece.marker);
      const card = cardOf(clauseOfN(piece.marker));
      append(textNode, h(doc, "sup", { className: "marker" }, card ? h(doc, "a", { href: `#card-${card}`, title: `Precedent [${n}]` }, `[${n}]`) : `[${n}]`));
      continue;
    }
    const classes = [piece.uncited && "uncited", piece.flagged && "flagged"].filter(Boolean).join(" ");
    append(textNode, classes ? h(doc, "span", { className: classes, title: piece.uncited ? "No precedent backs this sentence" : "Check: the precedent may not say this" }, piece.text) : piece.text);
  }

  const uncited = spansIn(answer?.redraft || "", answer?.uncited_sentences);
  const flaggedCount = citations.filter((c) => citationFlag(answer, c)).length;
  const legend = [];
  if (uncited.length) legend.push(h(doc, "li", { className: "legend-uncited" }, h(doc, "span", { className: "uncited" }, "Dotted underline"), `: ${plural(uncited.length, "sentence")} no precedent backs. Check ${uncited.length === 1 ? "it" : "them"} yourself.`));
  if (flaggedCount) legend.push(h(doc, "li", { className: "legend-flagged" }, h(doc, "span", { className: "flagged" }, "Shaded"), `: ${plural(flaggedCount, "citation")} the precedent may not support.`));

  const list = h(doc, "ol", { className: "citations", id: "citations" });
  for (const c of citations) append(list, citationItem(doc, answer, c, shownN(c.n), cardOf(c.clause_id)));

  container.replaceChildren();
  append(
    container,
    h(doc, "h3", {}, "Proposed clause"),
    textNode,
    legend.length ? h(doc, "ul", { className: "legend" }, legend) : null,
    h(doc, "h3", {}, citations.length ? "Citations" : "No citations"),
    citations.length ? list : answer?.producer?.kind === "operation"
      ? h(doc, "p", { className: "note" }, "Your clause with only the edits listed above; no precedent was needed.")
      : h(doc, "p", { className: "note warning-text" }, "No sentence of this redraft cites a precedent. Treat all of it as new wording."),
    problemsSection(doc, answer, { cardOf, precedents, shownMarker: (m) => m.replace(/\d+/, (d) => String(shownN(Number(d)))) }),
    original ? blacklineSection(doc, original, lawyerText) : null,
  );
}

/** The flag on a citation: from its support, or from a flagged sentence or comment citing it. */
export function citationFlag(answer, citation) {
  if (citation?.support && citation.support.supported === false) return "check: the precedent may not say this";
  const comments = (Array.isArray(answer?.comments) ? answer.comments : []).filter((m) => m && m.clause_id === citation.clause_id);
  for (const m of comments) {
    const flag = flagFor(answer, m);
    if (flag) return flag;
  }
  const flagged = Array.isArray(answer?.flagged) ? answer.flagged : [];
  return flagged.some((f) => f && (f.clause_id === citation.clause_id || f.n === citation.n)) ? "check: the precedent may not say this" : "";
}

function citationItem(doc, answer, c, n, card) {
  const quote = text(c.quote?.text);
  const flag = citationFlag(answer, c);
  const reasons = (Array.isArray(answer?.flagged) ? answer.flagged : [])
    .filter((f) => f && (f.clause_id === c.clause_id || f.n === c.n))
    .map((f) => text(f.reason))
    .filter(Boolean);
  const file = text(c.source?.file);
  return h(
    doc,
    "li",
    { className: flag ? "citation-item flagged-item" : "citation-item", dataset: { n: String(n) } },
    h(doc, "span", { className: "marker" }, `[${n}]`),
    " ",
    h(doc, "bdi", { className: "source-title" }, sourceText(c.source)),
    file ? h(doc, "span", { className: "citation" }, ` (${file})`) : null,
    card ? [" ", h(doc, "a", { className: "to-card", href: `#card-${card}` }, "Show precedent")] : null,
    quote ? h(doc, "blockquote", { className: "quote", dir: "auto" }, `“${quote}”`) : null,
    flag ? h(doc, "p", { className: "flag", role: "note" }, `⚠ ${capitalise(flag)}${reasons.length ? ` (${[...new Set(reasons)].join("; ").replace(/\.$/, "")})` : ""}.`) : null,
  );
}

function problemsSection(doc, answer, { cardOf, precedents, shownMarker }) {
  const items = [];
  const problems = (Array.isArray(answer?.citation_problems) ? answer.citation_problems : []).filter((p) => p && typeof p === "object");
  const explained = new Set(problems.map((p) => text(p.marker)));
  for (const p of problems) {
    const marker = shownMarker(text(p.marker));
    const reason = text(p.reason) || "it could not be checked";
    const quote = text(p.quote);
    // A quotation the precedents do not contain keeps its words but loses its quotation marks.
    if (quote && !marker) items.push(`Quotation “${quote}” unmarked: ${reason}.`);
    else items.push(`${marker ? `Citation ${marker}` : "A citation"} was removed: ${reason}.`);
  }
  for (const m of Array.isArray(answer?.removed_markers) ? answer.removed_markers : []) {
    if (typeof m === "string" && m && !explained.has(m)) items.push(`Citation ${m} was removed: it could not be checked against the precedents.`);
  }
  for (const id of Array.isArray(answer?.omitted_clause_ids) ? answer.omitted_clause_ids : []) {
    if (typeof id !== "string") continue;
    const p = precedents.find((x) => x?.clause_id === id);
    const card = cardOf(id);
    const name = p?.source ? sourceText(p.source) : card ? `Precedent [${card}]` : "One precedent";
    items.push(`${card && p?.source ? `[${card}] ` : ""}${name} was not used: the chosen precedents were too long to send together. Choose fewer to include it.`);
  }
  if (!items.length) return null;
  return h(doc, "div", { className: "problems" }, h(doc, "h3", {}, "Removed or left out"), h(doc, "ul", {}, items.map((t) => h(doc, "li", {}, t))));
}

function blacklineSection(doc, original, revised) {
  const area = h(doc, "div", { className: "blackline" });
  renderBlackline(doc, area, compareTexts(original, revised, { what: "the redraft" }));
  return h(doc, "details", { className: "redraft-blackline" }, h(doc, "summary", {}, "Changes from your clause"), area);
}

const capitalise = (s) => s.charAt(0).toUpperCase() + s.slice(1);
