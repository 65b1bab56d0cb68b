// Blackline: what a precedent (or a redraft) keeps, drops and adds from the lawyer's clause.
//
// Alignment is jsdiff's (vendored in vendor/diff.js) over word and punctuation tokens compared
// without regard to capitals, spacing, curly/straight quotes or dash style, so an all-capitals
// precedent with the same substance lines up with the lawyer's clause word for word. Changes a
// word or two apart are then grouped into one phrase ("shall not exceed" → "is limited to"),
// which is how a lawyer reads a blackline, instead of alternating one-word fragments.

import { diffArrays } from "./vendor/diff.js";

/** Equal runs of at most this many words (and punctuation) between two changes are folded into one phrase. */
export const PHRASE_GAP_WORDS = 1;
/** Give up aligning (show "replaced whole") beyond this many token edits: the texts are unrelated. */
export const MAX_EDIT_LENGTH = 1500;

const TOKEN = /(\s*)([\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}])/gu;
const WORD = /[\p{L}\p{N}]/u;

/** The comparison key of a token: NFKC, lower case, one kind of quote and dash. */
export function tokenKey(text) {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[‘’‚‛′]/g, "'")
    .replace(/[“”„‟″«»]/g, '"')
    .replace(/[‐‑‒–—―]/g, "-");
}

/** Split text into tokens [{lead, text, key}]; trailing whitespace becomes a token with empty text. */
export function tokenize(text) {
  const source = String(text ?? "");
  const tokens = [];
  let end = 0;
  for (const match of source.matchAll(TOKEN)) {
    tokens.push({ lead: match[1], text: match[2], key: tokenKey(match[2]) });
    end = match.index + match[0].length;
  }
  if (end < source.length) tokens.push({ lead: source.slice(end), text: "", key: "" });
  return tokens;
}

const spell = (tokens) => tokens.map((t) => t.lead + t.text).join("");
const wordCount = (tokens) => tokens.filter((t) => WORD.test(t.text)).length;

/** Token runs [{type: "equal"|"delete"|"insert", a: tokens, b: tokens}] aligned by jsdiff. */
export function alignTokens(a, b) {
  const ops = diffArrays(a, b, { comparator: (x, y) => x.key === y.key, maxEditLength: MAX_EDIT_LENGTH });
  if (!ops) return [{ type: "delete", a, b: [] }, { type: "insert", a: [], b }]; // too different to align
  const runs = [];
  let i = 0;
  let j = 0;
  for (const op of ops) {
    if (op.added) {
      runs.push({ type: "insert", a: [], b: b.slice(j, j + op.count) });
      j += op.count;
    } else if (op.removed) {
      runs.push({ type: "delete", a: a.slice(i, i + op.count), b: [] });
      i += op.count;
    } else {
      runs.push({ type: "equal", a: a.slice(i, i + op.count), b: b.slice(j, j + op.count) });
      i += op.count;
      j += op.count;
    }
  }
  return runs;
}

/**
 * Group runs into phrases: a change, a short equal stretch (<= gapWords words) and another
 * change become one change whose deleted side and inserted side both include the stretch.
 * Returns [{type: "equal", a, b} | {type: "change", a, b}].
 */
export function groupPhrases(runs, gapWords = PHRASE_GAP_WORDS) {
  const out = [];
  for (let k = 0; k < runs.length; k++) {
    const run = runs[k];
    const last = out[out.length - 1];
    if (run.type !== "equal") {
      if (last?.type === "change") {
        last.a.push(...run.a);
        last.b.push(...run.b);
      } else {
        out.push({ type: "change", a: [...run.a], b: [...run.b] });
      }
      continue;
    }
    const between = last?.type === "change" && runs.slice(k + 1).some((r) => r.type !== "equal");
    if (between && wordCount(run.b) <= gapWords && k + 1 < runs.length) {
      last.a.push(...run.a);
      last.b.push(...run.b);
    } else {
      out.push({ type: "equal", a: run.a, b: run.b });
    }
  }
  return out;
}

/**
 * Compare the lawyer's clause (`original`) with `revised`.
 * Returns {segments: [{type: "equal"|"delete"|"insert", text}], stats, summary}; equal text is
 * shown as `revised` spells it, since that is the text being read. `capitals`: whether the
 * server read `revised` in capitals and `original` not (capitalsOnly); the summary then says so.
 */
export function compareTexts(original, revised, { gapWords = PHRASE_GAP_WORDS, what = "this precedent", capitals = false } = {}) {
  const a = tokenize(original);
  const b = tokenize(revised);
  const runs = alignTokens(a, b);
  const segments = [];
  const push = (type, text) => {
    if (!text) return;
    const prev = segments[segments.length - 1];
    if (prev?.type === type) prev.text += text;
    else segments.push({ type, text });
  };
  let changes = 0;
  for (const group of groupPhrases(runs, gapWords)) {
    if (group.type === "equal") {
      push("equal", spell(group.b));
    } else {
      if (wordCount(group.a) + wordCount(group.b) > 0) changes++;
      push("delete", spell(group.a));
      push("insert", spell(group.b));
    }
  }
  const kept = runs.filter((r) => r.type === "equal").reduce((n, r) => n + wordCount(r.a), 0);
  const stats = {
    changes,
    inserted: runs.filter((r) => r.type === "insert").reduce((n, r) => n + wordCount(r.b), 0),
    deleted: runs.filter((r) => r.type === "delete").reduce((n, r) => n + wordCount(r.a), 0),
    kept,
    total: wordCount(a),
    capitals: capitals === true,
  };
  return { segments, stats, summary: summarise(stats, what) };
}

/**
 * Whether the server read a precedent's words in capitals and the lawyer's not (each one's
 * `reading.capitals`, from index_builder/reading/labels.py); false when either is not known.
 */
export function capitalsOnly(theirs, ours) {
  return theirs?.capitals === true && ours?.capitals === false;
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line above the blackline: how many changes, how much of the lawyer's wording is kept. */
export function summarise(stats, what = "this precedent") {
  const ignored = stats.capitals
    ? ` ${capitalise(what)} is in capitals; capitals and spacing are ignored.`
    : " Capitals and spacing are ignored.";
  if (!stats.changes) return `Same wording as your clause.${ignored}`;
  const share = stats.total ? Math.round((100 * stats.kept) / stats.total) : 0;
  return (
    `Your clause → ${what}: ${plural(stats.changes, "change")} ` +
    `(${plural(stats.deleted, "word")} removed, ${stats.inserted} added); ${share}% of your wording kept.${ignored}`
  );
}

const capitalise = (s) => s.charAt(0).toUpperCase() + s.slice(1);
