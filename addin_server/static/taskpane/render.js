// Building the pane's DOM. Server text is only ever set as textContent (never parsed as
// HTML), so a clause containing markup cannot inject anything into the pane.
// The small formatting helpers at the top are pure and unit-tested.

import { splitMarkers } from "./citations.js";

/** Shorten `text` to about `max` characters at a word boundary, with an ellipsis. */
export function truncate(text, max = 280) {
  const clean = String(text ?? "").replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

/** Stars for a reranked result: {filled (0-5, whole stars), label}; null when not reranked. */
export function starRating(stars) {
  if (typeof stars !== "number" || !Number.isFinite(stars)) return null;
  const value = Math.min(5, Math.max(1, stars));
  return { filled: Math.round(value), value, label: `Rated ${value.toFixed(1)} out of 5 for fit` };
}

/** Relevance bars (1-5) from the search rank, for results the AI did not rate. */
export function relevanceBars(rank) {
  const r = Number(rank) || 99;
  const bars = r <= 1 ? 5 : r <= 3 ? 4 : r <= 6 ? 3 : r <= 10 ? 2 : 1;
  return { bars, label: `Search match #${r}` };
}

/** "Title · 12.3 Heading" for a result's source. */
export function sourceLine(source) {
  const s = source || {};
  const title = s.document || s.file || s.doc_id || "Unknown document";
  const where = [s.section, s.heading].filter((x) => x && String(x).trim()).join(" ");
  return { title: String(title), where: where ? String(where) : "" };
}

/** The sentence under the rerank note, or "" when the AI rerank was applied. */
export function rerankNote(rerank) {
  if (!rerank || rerank.status === "applied") return "";
  const why = rerank.reason ? ` (${rerank.reason})` : "";
  if (rerank.status === "unavailable") return `Ordered by search relevance: AI rating is unavailable${why}.`;
  return `Ordered by search relevance${why}.`;
}

// ---- DOM ---------------------------------------------------------------------------------

/** Create an element: h(doc, "button", {className: "x", onclick}, "text", child...). */
export function h(doc, tag, props = {}, ...children) {
  const node = doc.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "className") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? doc.createTextNode(child) : child);
  }
  return node;
}

function scoreBadge(doc, result) {
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
        h(doc, "span", { className: "stars-on" }, "★".repeat(rating.filled)),
        h(doc, "span", { className: "stars-off" }, "★".repeat(5 - rating.filled)),
      ),
      h(doc, "span", { className: "score-value", "aria-hidden": "true" }, rating.value.toFixed(1)),
    );
  }
  const rel = relevanceBars(result.rank);
  const bars = [];
  for (let i = 1; i <= 5; i++) bars.push(h(doc, "span", { className: i <= rel.bars ? "bar on" : "bar" }));
  return h(
    doc,
    "span",
    { className: "score relevance", role: "img", "aria-label": rel.label, title: rel.label },
    h(doc, "span", { className: "bars", "aria-hidden": "true" }, bars),
    h(doc, "span", { className: "score-value", "aria-hidden": "true" }, `#${result.rank}`),
  );
}

/** "Also in 2 other documents: A · 8.2, B · 8.2" for near copies folded into this result. */
export function variantsNote(doc, variants) {
  if (!variants?.length) return null;
  const places = variants.map((v) => {
    const src = sourceLine(v.source);
    return src.where ? `${src.title} · ${src.where}` : src.title;
  });
  const label = `Also in ${variants.length} other document${variants.length === 1 ? "" : "s"}, nearly word for word: `;
  return h(doc, "p", { className: "variants" }, label, places.join("; "));
}

/**
 * One result card. `handlers` has onInsert, onCompare, onCopy, onExpand, onSelect(checked);
 * each gets (result, card). `options.canEdit` false disables Insert with a tooltip.
 */
export function renderResultCard(doc, result, handlers, { canEdit = true, editMessage = "", selected = false } = {}) {
  const src = sourceLine(result.source);
  const idBase = `r-${String(result.clause_id).replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const card = h(doc, "li", { className: "card", dataset: { clauseId: result.clause_id } });
  const call = (name) => () => handlers[name]?.(result, card);

  const pick = h(doc, "input", {
    type: "checkbox",
    id: `${idBase}-pick`,
    checked: selected,
    onchange: (e) => handlers.onSelect?.(result, e.target.checked),
  });
  card.append(
    h(
      doc,
      "div",
      { className: "card-head" },
      h(doc, "label", { className: "pick", for: `${idBase}-pick` }, pick, h(doc, "span", {}, "Use in redraft")),
      scoreBadge(doc, result),
    ),
    h(
      doc,
      "p",
      { className: "source" },
      h(doc, "span", { className: "source-title" }, src.title),
      src.where ? h(doc, "span", { className: "source-where" }, ` · ${src.where}`) : null,
    ),
    variantsNote(doc, result.variants),
    h(doc, "p", { className: "snippet", id: `${idBase}-snippet` }, truncate(result.text)),
  );
  const full = h(doc, "div", { className: "full", id: `${idBase}-full`, hidden: true });
  const expand = h(
    doc,
    "button",
    { type: "button", className: "link", "aria-expanded": "false", "aria-controls": `${idBase}-full`, onclick: call("onExpand") },
    "Show full clause",
  );
  const blackline = h(doc, "div", { className: "blackline", hidden: true, "aria-live": "polite" });
  const insert = h(
    doc,
    "button",
    { type: "button", className: "secondary", onclick: call("onInsert"), disabled: !canEdit, title: canEdit ? "Replace the selected clause with this precedent, as a tracked change" : editMessage },
    "Insert",
  );
  card.append(
    expand,
    full,
    h(
      doc,
      "div",
      { className: "actions" },
      insert,
      h(doc, "button", { type: "button", className: "secondary", "aria-expanded": "false", onclick: call("onCompare"), title: "Show the changes from your clause to this precedent" }, "Compare"),
      h(doc, "button", { type: "button", className: "secondary", onclick: call("onCopy"), title: "Copy the precedent text" }, "Copy"),
    ),
    blackline,
  );
  return card;
}

/** Fill a card's "full clause" area: context before, the clause, context after. */
export function renderClauseContext(doc, container, data, fallbackText) {
  container.replaceChildren();
  const ctx = data?.context || {};
  const para = (clause, className) => h(doc, "p", { className }, String(clause?.text ?? ""));
  for (const c of ctx.before || []) container.append(para(c, "context"));
  container.append(para(data?.clause || { text: fallbackText }, "clause"));
  for (const c of ctx.after || []) container.append(para(c, "context"));
  const src = data?.clause?.source;
  if (src?.citation) container.append(h(doc, "p", { className: "citation" }, src.citation));
}

/** Show a blackline (segments from diffWords) with a one-line summary. */
export function renderBlackline(doc, container, segments, stats) {
  container.replaceChildren(
    h(
      doc,
      "p",
      { className: "blackline-summary" },
      `Your clause → this precedent: ${stats.inserted} word${stats.inserted === 1 ? "" : "s"} added, ${stats.deleted} removed.`,
    ),
    h(doc, "p", { className: "blackline-text" }, blacklineNodes(doc, segments)),
  );
}

/**
 * Nodes for a blackline. The space before a changed word is left outside <ins>/<del>, so
 * underlines and strike-throughs cover words only; a deletion directly followed by an
 * insertion with no space between them gets one, so "Customer" and "other" do not run together.
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
    else if (s.type === "insert" && prev?.type === "delete" && !/\s$/.test(prev.text)) nodes.push(doc.createTextNode(" "));
    if (body) nodes.push(h(doc, s.type === "insert" ? "ins" : "del", {}, body));
  });
  return nodes;
}

/** Show the redraft (markers highlighted) and its citation list. */
export function renderRedraft(doc, textContainer, citationList, answer) {
  textContainer.replaceChildren(
    ...splitMarkers(answer.redraft || "").map((p) =>
      p.type === "marker" ? h(doc, "sup", { className: "marker" }, p.text) : doc.createTextNode(p.text),
    ),
  );
  citationList.replaceChildren(
    ...(answer.citations || []).map((c) => {
      const src = sourceLine(c.source);
      return h(
        doc,
        "li",
        {},
        h(doc, "span", { className: "marker" }, c.marker || `[${c.n}]`),
        " ",
        h(doc, "span", { className: "source-title" }, src.title),
        src.where ? ` · ${src.where}` : "",
        // The title and section already say what the citation string would; the file is what
        // lets a lawyer open the source.
        c.source?.file ? h(doc, "span", { className: "citation" }, ` (${c.source.file})`) : null,
      );
    }),
  );
}
