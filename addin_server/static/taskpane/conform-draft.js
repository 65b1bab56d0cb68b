// A redraft conformed to the open document (issue 23): the server's /conform answer for the
// draft's text, carried over onto the draft's citations, comments and flags, so Apply puts in
// the conformed wording and each citation comment still finds its sentence.
//
// Conforming rewrites a few words ("Provider" -> "Supplier", "a" -> "an"), so every offset the
// redraft answer holds is moved through a character alignment of the two texts (jsdiff, as the
// blackline uses): positions in unchanged text move with it, and a span that starts or ends in a
// rewritten word takes the whole rewritten word.

import { diffArrays } from "./vendor/diff.js";
import { sourceText } from "./cards.js";

/**
 * Offset maps from `before` to `after`: {start(p), end(p)} for a span [p, q) of `before`.
 * Null when the texts are too different to align (then nothing is carried over).
 */
export function offsetMaps(before, after) {
  const a = [...String(before ?? "")];
  const b = [...String(after ?? "")];
  const ops = diffArrays(a, b, { maxEditLength: 2000 });
  if (!ops) return null;
  const starts = new Array(a.length + 1).fill(0);
  const ends = new Array(a.length + 1).fill(0);
  let i = 0;
  let j = 0;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k];
    if (!op.added && !op.removed) {
      for (let n = 0; n < op.count; n++) starts[i + n] = ends[i + n] = j + n;
      i += op.count;
      j += op.count;
      continue;
    }
    // One change block: the removed run and the added run next to it, in either order.
    let removed = 0;
    let added = 0;
    while (k < ops.length && (ops[k].added || ops[k].removed)) {
      if (ops[k].removed) removed += ops[k].count;
      else added += ops[k].count;
      k++;
    }
    k--;
    // A span ending just before rewritten characters ends where the rewrite begins.
    if (removed) ends[i] = j;
    for (let n = 0; n < removed; n++) starts[i + n] = j;
    for (let n = 1; n <= removed; n++) ends[i + n] = j + added;
    i += removed;
    j += added;
  }
  starts[a.length] = ends[a.length] = b.length;
  // Code units, not code points, are what the server's and the pane's offsets count.
  const units = (chars) => {
    const out = [0];
    for (const c of chars) out.push(out[out.length - 1] + c.length);
    return out;
  };
  const ua = units(a);
  const ub = units(b);
  const index = new Map(ua.map((u, n) => [u, n]));
  const at = (table, p) => (index.has(p) ? ub[table[index.get(p)]] : null);
  return { start: (p) => at(starts, p), end: (p) => at(ends, p) };
}

/** `item` ({start, end, sentence}) moved into the conformed text; null when it cannot be placed. */
function moved(item, before, after, maps) {
  let { start, end } = item;
  const sentence = typeof item.sentence === "string" ? item.sentence : "";
  const valid = Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end > start && end <= before.length &&
    (!sentence || before.slice(start, end).trim() === sentence.trim());
  if (!valid) {
    const at = sentence ? before.indexOf(sentence) : -1;
    if (at < 0) return null;
    start = at;
    end = at + sentence.length;
  }
  const s = maps.start(start);
  const e = maps.end(end);
  if (s === null || e === null || e <= s) return null;
  const out = { ...item, start: s, end: e };
  if (sentence || "sentence" in item) out.sentence = after.slice(s, e);
  return out;
}

/**
 * The redraft `answer` with its text replaced by `data.text` (the /conform answer for it) and
 * every sentence offset moved to match. The answer itself when nothing changed or the texts
 * cannot be aligned.
 */
export function conformedAnswer(answer, data) {
  const before = typeof answer?.redraft === "string" ? answer.redraft : "";
  const after = typeof data?.text === "string" ? data.text : before;
  if (!before || after === before) return answer;
  const maps = offsetMaps(before, after);
  if (!maps) return answer;
  const move = (list) => (Array.isArray(list) ? list.map((x) => (x && typeof x === "object" ? moved(x, before, after, maps) ?? x : x)) : list);
  return {
    ...answer,
    redraft: after,
    comments: move(answer.comments),
    flagged: move(answer.flagged),
    uncited_sentences: move(answer.uncited_sentences),
  };
}

/**
 * The Word comment (on the whole clause) that records what conforming changed in a redraft:
 * the precedents it was conformed from, then `lines` (conform-view.js conformChanges).
 */
export function draftConformComment(answer, lines) {
  if (!lines.length) return "";
  const sources = (Array.isArray(answer?.precedents) ? answer.precedents : [])
    .map((p) => (p?.source && typeof p.source === "object" ? sourceText(p.source) : ""))
    .filter(Boolean);
  const from = sources.length ? [`Redraft from ${[...new Set(sources)].join("; ")}.`] : [];
  return [...from, ...lines.map((l) => l.charAt(0).toUpperCase() + l.slice(1))].join("\n");
}
