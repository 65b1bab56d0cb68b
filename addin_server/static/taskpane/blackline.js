// Word-level blackline: which words of the lawyer's clause a precedent keeps, drops and adds.
//
// Tokens are words and punctuation marks; the whitespace before a token travels with it
// but is not compared, so a reflowed line or a double space is not shown as a change.
// The diff is a longest common subsequence over tokens, after trimming the common prefix
// and suffix (clauses compared with their precedents usually share long runs of both).

/** Most LCS table cells we fill for word tokens (about 2,000 x 2,000 words, 16 MB). */
export const MAX_CELLS = 4_000_000;

const TOKEN = /(\s*)([\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}])/gu;
const SENTENCE = /(\s*)([^\s][^.;:!?]*(?:[.;:!?]+|$))/gu;

/**
 * Split text into tokens: [{lead, text}] where lead is the whitespace before the token.
 * Whitespace at the very end is returned as a token with empty text so nothing is lost.
 */
export function tokenize(text, pattern = TOKEN) {
  const tokens = [];
  let end = 0;
  for (const match of String(text).matchAll(pattern)) {
    if (!match[2]) continue;
    tokens.push({ lead: match[1], text: match[2] });
    end = match.index + match[0].length;
  }
  const tail = String(text).slice(end);
  if (tail) tokens.push({ lead: tail, text: "" });
  return tokens;
}

/**
 * Diff two texts word by word.
 * Returns segments [{type: "equal"|"delete"|"insert", text}] that, read in order, spell the
 * original text (equal + delete) and the revised text (equal + insert). Within a changed
 * stretch deletions come before insertions, as in a lawyer's blackline.
 */
export function diffWords(original, revised, { maxCells = MAX_CELLS } = {}) {
  const a = tokenize(original);
  const b = tokenize(revised);
  let ops;
  if (a.length * b.length <= maxCells) {
    ops = diffTokens(a, b, maxCells);
  } else {
    // Too long for a word table: compare sentence by sentence, then words within the
    // changed sentences where that is small enough, so the pane stays responsive.
    ops = [];
    let removed = "";
    let added = "";
    const flush = () => {
      if (removed || added) ops.push(...diffTokens(tokenize(removed), tokenize(added), maxCells));
      removed = "";
      added = "";
    };
    for (const op of diffTokens(tokenize(original, SENTENCE), tokenize(revised, SENTENCE), maxCells)) {
      if (op.type === "equal") {
        flush();
        ops.push(op);
      } else if (op.type === "delete") {
        removed += op.text;
      } else {
        added += op.text;
      }
    }
    flush();
  }
  return mergeSegments(ops);
}

/** Diff token arrays; returns [{type, text}] with each token's lead included in its text. */
export function diffTokens(a, b, maxCells = MAX_CELLS) {
  let start = 0;
  while (start < a.length && start < b.length && a[start].text === b[start].text) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1].text === b[endB - 1].text) {
    endA--;
    endB--;
  }
  const ops = [];
  // Equal tokens are shown with the revised text's spacing: that is the text being read.
  for (let i = 0; i < start; i++) ops.push({ type: "equal", text: b[i].lead + b[i].text });
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > maxCells) {
    for (const t of midA) ops.push({ type: "delete", text: t.lead + t.text });
    for (const t of midB) ops.push({ type: "insert", text: t.lead + t.text });
  } else {
    ops.push(...lcsOps(midA, midB));
  }
  for (let i = endB; i < b.length; i++) ops.push({ type: "equal", text: b[i].lead + b[i].text });
  return ops;
}

function lcsOps(a, b) {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((t) => ({ type: "insert", text: t.lead + t.text }));
  if (m === 0) return a.map((t) => ({ type: "delete", text: t.lead + t.text }));
  // lengths[i * (m + 1) + j] = LCS length of a[i:] and b[j:]
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i].text === b[j].text
          ? lengths[(i + 1) * width + j + 1] + 1
          : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i].text === b[j].text) {
      ops.push({ type: "equal", text: b[j].lead + b[j].text });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
      ops.push({ type: "delete", text: a[i].lead + a[i].text });
      i++;
    } else {
      ops.push({ type: "insert", text: b[j].lead + b[j].text });
      j++;
    }
  }
  for (; i < n; i++) ops.push({ type: "delete", text: a[i].lead + a[i].text });
  for (; j < m; j++) ops.push({ type: "insert", text: b[j].lead + b[j].text });
  return ops;
}

/** Join runs of the same type, and put deletions before insertions within a changed stretch. */
export function mergeSegments(ops) {
  const out = [];
  let dels = [];
  let ins = [];
  const flush = () => {
    if (dels.length) out.push({ type: "delete", text: dels.join("") });
    if (ins.length) out.push({ type: "insert", text: ins.join("") });
    dels = [];
    ins = [];
  };
  for (const op of ops) {
    if (op.type === "equal") {
      flush();
      const last = out[out.length - 1];
      if (last && last.type === "equal") last.text += op.text;
      else out.push({ type: "equal", text: op.text });
    } else if (op.type === "delete") {
      dels.push(op.text);
    } else {
      ins.push(op.text);
    }
  }
  flush();
  return out.filter((s) => s.text !== "");
}

/** Count words added and removed, for a one-line summary above the blackline. */
export function diffStats(segments) {
  const words = (text) => (text.match(/[\p{L}\p{N}]+/gu) || []).length;
  let inserted = 0;
  let deleted = 0;
  for (const s of segments) {
    if (s.type === "insert") inserted += words(s.text);
    if (s.type === "delete") deleted += words(s.text);
  }
  return { inserted, deleted };
}
