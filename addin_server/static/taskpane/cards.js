// A result card: its number [n], where it comes from, its score, the clause text with the
// passages that matched, and its actions. Pure formatting helpers first (unit-tested), then DOM.

import { append, h, plural, text, truncate } from "./dom.js";
import { sourceLink } from "./source-link.js";

/** AI fit rating: {value (1-5, one decimal), fill (0-1), text, label}; null when not rated. */
export function starRating(stars) {
  if (typeof stars !== "number" || !Number.isFinite(stars)) return null;
  const value = Math.round(Math.min(5, Math.max(1, stars)) * 10) / 10;
  return { value, fill: Math.round(value * 20) / 100, text: value.toFixed(1), label: `AI fit rating ${value.toFixed(1)} out of 5` };
}

/**
 * For results the AI did not rate: how the search found them, in words (the card's [n] already
 * gives the order), never a rating-like graphic. {text, label}; text is "" when unknown.
 */
export function searchMatch(result) {
  const ranks = result?.retrieval?.ranks && typeof result.retrieval.ranks === "object" ? result.retrieval.ranks : {};
  const byMeaning = Number.isFinite(ranks.dense);
  const byWording = Number.isFinite(ranks.bm25);
  const text = byMeaning && byWording ? "Same words and meaning" : byWording ? "Same words" : byMeaning ? "Similar meaning" : "";
  return { text, label: `Not rated by AI. ${text ? `Found by ${byMeaning && byWording ? "both the words and the meaning" : byWording ? "the words" : "the meaning"} of your clause.` : ""}`.trim() };
}

/** {title, where} for a source: "Master Services Agreement", "12.1 Cap on liability". */
export function sourceLine(source) {
  const s = source && typeof source === "object" ? source : {};
  const title = text(s.document) || text(s.file) || text(s.doc_id) || "Untitled document";
  const section = text(s.section);
  const heading = text(s.heading);
  // Some corpora repeat the section number at the start of the heading.
  const where = heading.startsWith(section) ? heading : [section, heading].filter(Boolean).join(" ");
  return { title, where };
}

/** "Title · 12.1 Heading" in one string. */
export function sourceText(source) {
  const { title, where } = sourceLine(source);
  return where ? `${title} · ${where}` : title;
}

/**
 * Split `clause` into pieces [{text, mark}] for display: at most `max` characters, starting
 * near the first matching span when it lies beyond the cut, with the spans marked.
 */
export function snippetPieces(clause, spans, max = 280) {
  const full = String(clause ?? "");
  const valid = (Array.isArray(spans) ? spans : [])
    .filter((s) => Number.isInteger(s?.start) && Number.isInteger(s?.end) && s.start >= 0 && s.end > s.start && s.end <= full.length)
    .sort((x, y) => x.start - y.start);
  let from = 0;
  if (valid.length && valid[0].end > max) {
    const space = full.lastIndexOf(" ", Math.max(0, valid[0].start - 40));
    from = space > 0 ? space + 1 : 0;
  }
  let to = Math.min(full.length, from + max);
  if (to < full.length) {
    const space = full.lastIndexOf(" ", to);
    if (space > from + max * 0.6) to = space;
  }
  const pieces = [];
  if (from > 0) pieces.push({ text: "… ", mark: false });
  let at = from;
  for (const s of valid) {
    const start = Math.max(s.start, at);
    const end = Math.min(s.end, to);
    if (end <= start) continue;
    if (start > at) pieces.push({ text: full.slice(at, start), mark: false });
    pieces.push({ text: full.slice(start, end), mark: true });
    at = end;
  }
  if (at < to) pieces.push({ text: full.slice(at, to), mark: false });
  if (to < full.length) pieces.push({ text: "…", mark: false });
  return pieces.map((p) => ({ ...p, text: p.text.replace(/\s+/g, " ") }));
}

// ---- DOM ---------------------------------------------------------------------------------

/** The score: AI stars filled to the tenth with the number beside them, or the search position. */
export function scoreBadge(doc, result) {
  const rating = starRating(result.stars);
  if (rating) {
    return h(
      doc,
      "span",
      { className: "score stars", role: "img", "aria-label": rating.label, title: rating.label },
      h(
        doc,
        "span",
        { className: "stars-glyphs", "aria-hidden": "true" },
        h(doc, "span", { className: "stars-off" }, "☆☆☆☆☆"),
        h(doc, "span", { className: "stars-on", style: `width: ${(rating.fill * 100).toFixed(0)}%` }, "★★★★★"),
      ),
      h(doc, "span", { className: "score-value", "aria-hidden": "true" }, rating.text),
    );
  }
  const match = searchMatch(result);
  return match.text ? h(doc, "span", { className: "score match", title: match.label }, match.text) : null;
}

/** "Also in 2 other documents, nearly word for word: A · 8.2; B · 8.2", or null. */
export function variantsNote(doc, variants) {
  const list = (Array.isArray(variants) ? variants : []).filter((v) => v && typeof v === "object");
  if (!list.length) return null;
  const places = list.map((v) => sourceText(v.source));
  return h(doc, "p", { className: "variants" }, `Also in ${plural(list.length, "other document")}, nearly word for word: `, places.join("; "));
}

/** The clause text with matching passages marked. */
export function snippet(doc, result, id) {
  const node = h(doc, "p", { className: "snippet", id, dir: "auto" });
  for (const piece of snippetPieces(result.text, result.spans)) {
    append(node, piece.mark ? h(doc, "mark", { title: "The passage that matched your clause" }, piece.text) : piece.text);
  }
  return node;
}

/**
 * One result card, numbered `n` (the [n] that redraft citations point to).
 * `handlers`: onInsert, onCompare, onCopy, onExpand, onSelect(result, checked); each gets (result, card).
 * `options`: {canEdit, editMessage, selected, inserted}.
 */
export function renderResultCard(doc, result, n, handlers, { canEdit = true, editMessage = "", selected = false, inserted = false } = {}) {
  const src = sourceLine(result.source);
  const idBase = `card-${n}`;
  const card = h(doc, "li", { className: "card", id: idBase, dataset: { clauseId: text(result.clause_id), n: String(n) } });
  const call = (name) => () => handlers[name]?.(result, card);

  const pick = h(doc, "input", {
    type: "checkbox",
    id: `${idBase}-pick`,
    checked: selected,
    onchange: (e) => handlers.onSelect?.(result, e.target.checked),
  });
  const insertTitle = canEdit ? "Put this precedent in place of your clause, adapted to it, as a tracked change" : editMessage;
  append(
    card,
    h(
      doc,
      "div",
      { className: "card-head" },
      h(doc, "span", { className: "card-n", title: `Precedent ${n}` }, `[${n}]`),
      h(doc, "label", { className: "pick", for: `${idBase}-pick` }, pick, h(doc, "span", {}, "Use in redraft")),
      scoreBadge(doc, result),
    ),
    h(
      doc,
      "p",
      { className: "source" },
      h(doc, "bdi", { className: "source-title" }, src.title),
      src.where ? [" · ", h(doc, "bdi", { className: "source-where" }, src.where)] : null,
      sourceLink(doc, result.source) ? [" · ", sourceLink(doc, result.source)] : null,
    ),
    variantsNote(doc, result.variants),
    snippet(doc, result, `${idBase}-snippet`),
    h(
      doc,
      "button",
      { type: "button", className: "link expand", "aria-expanded": "false", "aria-controls": `${idBase}-full`, onclick: call("onExpand") },
      "Show full clause",
    ),
    h(doc, "div", { className: "full", id: `${idBase}-full`, hidden: true }),
    h(
      doc,
      "div",
      { className: "actions" },
      h(
        doc,
        "button",
        { type: "button", className: inserted ? "secondary done" : "secondary", dataset: { action: "insert" }, onclick: call("onInsert"), disabled: !canEdit || inserted, title: inserted ? "This precedent is in your document" : insertTitle },
        inserted ? "Inserted ✓" : "Insert",
      ),
      h(doc, "button", { type: "button", className: "secondary", dataset: { action: "compare" }, "aria-expanded": "false", onclick: call("onCompare"), title: "Show the changes from your clause to this precedent" }, "Compare"),
      h(doc, "button", { type: "button", className: "secondary", dataset: { action: "copy" }, onclick: call("onCopy"), title: "Copy the precedent text" }, "Copy"),
    ),
    h(doc, "div", { className: "blackline", hidden: true, "aria-live": "polite" }),
  );
  return card;
}

/**
 * Fill a card's "full clause" area: the clauses before and after it in its own document when
 * the server has them, else the clause alone with a note saying why.
 */
export function renderClauseContext(doc, container, data, fallbackText) {
  container.replaceChildren();
  const ctx = data?.context && typeof data.context === "object" ? data.context : {};
  const para = (clause, className) => h(doc, "p", { className, dir: "auto" }, text(clause?.text));
  const clause = data?.clause && typeof data.clause === "object" ? data.clause : { text: fallbackText };
  const available = data ? data.context_available !== false : true;
  if (available) append(container, (Array.isArray(ctx.before) ? ctx.before : []).map((c) => para(c, "context")));
  append(container, para(clause, "clause"));
  if (available) append(container, (Array.isArray(ctx.after) ? ctx.after : []).map((c) => para(c, "context")));
  if (data && !available) {
    append(container, h(doc, "p", { className: "note" }, "This library does not record where the clause sits in its document, so no surrounding clauses are shown."));
  }
  const citation = text(clause?.source?.citation);
  if (citation) append(container, h(doc, "p", { className: "citation" }, citation));
}
