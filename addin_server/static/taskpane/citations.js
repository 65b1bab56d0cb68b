// Turning the server's redraft into what goes into Word: the clause text, and one comment
// per citation with the text to search for its anchor sentence.
//
// The citation markers ("[1]") are taken out of the text put into the document: in Word the
// citation is the comment on the sentence, and a contract should not carry "[1]" that the
// lawyer then has to delete by hand. The pane still shows the markers next to the redraft.

import { openLine } from "./source-link.js";

/** Word's Range.search accepts at most 255 characters. */
export const WORD_SEARCH_LIMIT = 255;

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Remove the given markers (e.g. ["[1]", "[2]"]), with the space before them and list commas. */
export function stripMarkers(text, markers) {
  const unique = [...new Set((markers || []).filter((m) => typeof m === "string" && m))];
  if (!unique.length) return String(text ?? "");
  const one = `(?:${unique.map(escapeRegExp).join("|")})`;
  const run = new RegExp(`[ \\t\\u00a0]*${one}(?:[ \\t\\u00a0]*[,;]?[ \\t\\u00a0]*${one})*`, "g");
  return String(text ?? "").replace(run, "");
}

/**
 * The text to search for so as to find `sentence` in the inserted range: its first line,
 * trimmed, at most `limit` characters long (cut at a word boundary), with Word's special
 * character "^" escaped. Returns "" when nothing usable is left.
 */
export function searchPrefix(sentence, limit = WORD_SEARCH_LIMIT) {
  // A search cannot cross a paragraph break, and the redraft's newlines become paragraphs.
  let text = String(sentence ?? "").split(/[\r\n\u000b]/).map((l) => l.trim()).find((l) => l) || "";
  text = text.replace(/\s+/g, " ");
  const escapedLength = (s) => s.length + (s.match(/\^/g) || []).length;
  if (escapedLength(text) > limit) {
    let cut = text.slice(0, limit);
    while (escapedLength(cut) > limit) cut = cut.slice(0, -1);
    const space = cut.lastIndexOf(" ");
    text = (space > limit / 2 ? cut.slice(0, space) : cut).trimEnd();
  }
  return text.replace(/\^/g, "^^");
}

/**
 * The text to search for to find where `sentence` ends, when `searchPrefix` cannot cover it
 * (longer than one search, or over several lines): its last line's final up-to-`limit`
 * characters, starting at a word. "" when the prefix already spans the whole sentence.
 */
export function searchSuffix(sentence, limit = WORD_SEARCH_LIMIT) {
  const lines = String(sentence ?? "").split(/[\r\n\u000b]/).map((l) => l.trim().replace(/\s+/g, " ")).filter((l) => l);
  if (!lines.length) return "";
  if (lines.length === 1 && searchPrefix(lines[0], limit) === lines[0].replace(/\^/g, "^^")) return "";
  let text = lines[lines.length - 1];
  const escapedLength = (s) => s.length + (s.match(/\^/g) || []).length;
  if (escapedLength(text) > limit) {
    let cut = text.slice(-limit);
    while (escapedLength(cut) > limit) cut = cut.slice(1);
    const space = cut.indexOf(" ");
    text = (space >= 0 && space < limit / 2 ? cut.slice(space + 1) : cut).trimStart();
  }
  return text.replace(/\^/g, "^^");
}

/** The citation for `comment` (same clause id, else same marker), or null. */
export function citationFor(answer, comment) {
  const citations = Array.isArray(answer?.citations) ? answer.citations : [];
  return (
    citations.find((c) => c && comment.clause_id && c.clause_id === comment.clause_id) ||
    citations.find((c) => c && comment.marker && c.marker === comment.marker) ||
    null
  );
}

/** The flag for a cited sentence ("check: the precedent may not say this"), or "". */
export function flagFor(answer, comment) {
  if (typeof comment?.flag === "string" && comment.flag.trim()) return comment.flag.trim();
  const flagged = Array.isArray(answer?.flagged) ? answer.flagged : [];
  const hit = flagged.find(
    (f) => f && f.clause_id === comment.clause_id && Number.isInteger(f.start) && f.start === comment.start,
  );
  return hit ? "check: the precedent may not say this" : "";
}

/**
 * The Word comment for one cited sentence, written from the citation's source so that it
 * agrees with the inserted text (whose [n] markers are removed): where the sentence comes
 * from, the passage relied on, and any flag.
 */
export function commentText(answer, comment) {
  const citation = citationFor(answer, comment);
  const src = citation?.source && typeof citation.source === "object" ? citation.source : null;
  const lines = [];
  const where = src
    ? clean(src.citation) || [clean(src.document) || clean(src.doc_id), clean(src.section), clean(src.heading)].filter(Boolean).join(", ")
    : "";
  if (where) {
    const file = clean(src.file);
    lines.push(`Source: ${where}${file ? ` (${file})` : ""}`);
  } else {
    // No source to write from: the server's first line, without the marker the document does not carry.
    const own = clean(comment.text).split("\n")[0].replace(/^Precedent\s*\[\d+\]\s*:?\s*/i, "").trim();
    if (own && !/^[“"]/.test(own)) lines.push(`Source: ${own}`);
  }
  const quote = clean(citation?.quote?.text) || quotedIn(comment.text);
  if (!lines.length) return "";
  if (quote && !lines[0].includes(quote)) lines.push(`“${quote.replace(/^[“"]|[”"]$/g, "")}”`);
  const flag = flagFor(answer, comment);
  if (flag) lines.push(`${flag.charAt(0).toUpperCase()}${flag.slice(1)}.`.replace(/\.\.$/, "."));
  lines.push(openLine(src));
  return lines.filter(Boolean).join("\n");
}

const clean = (value) => (typeof value === "string" ? value.trim() : "");

/** The “quoted passage” on the second line of the server's comment text, or "". */
function quotedIn(serverText) {
  const m = clean(serverText).match(/\n\s*[“"](.+)[”"]\s*$/s);
  return m ? m[1].trim() : "";
}

/**
 * From a /redraft answer, the text to insert and the comments to add.
 * Returns {text, comments: [{marker, clauseId, text, search, searchEnd}]} in the server's order.
 */
/** The citation markers a redraft answer names ("[1]"), which Apply leaves out of the text. */
export function redraftMarkers(answer) {
  const citations = Array.isArray(answer?.citations) ? answer.citations : [];
  const comments = Array.isArray(answer?.comments) ? answer.comments : [];
  return [
    ...citations.map((c) => c?.marker),
    ...citations.map((c) => (Number.isInteger(c?.n) ? `[${c.n}]` : null)),
    ...comments.map((c) => c?.marker),
    ...(Array.isArray(answer?.removed_markers) ? answer.removed_markers : []),
  ];
}

export function prepareRedraft(answer) {
  const citations = Array.isArray(answer?.citations) ? answer.citations : [];
  const comments = Array.isArray(answer?.comments) ? answer.comments : [];
  const markers = redraftMarkers(answer);
  const text = stripMarkers(answer?.redraft ?? "", markers).trim();
  return {
    text,
    comments: comments
      .filter((c) => c && typeof c === "object")
      .map((c) => ({
        marker: c.marker || "",
        clauseId: c.clause_id || "",
        text: commentText(answer, c),
        search: searchPrefix(stripMarkers(sentenceOf(c, answer?.redraft), markers)),
        searchEnd: searchSuffix(stripMarkers(sentenceOf(c, answer?.redraft), markers)),
      }))
      .filter((c) => c.text),
  };
}

/** The cited sentence: as sent, else cut from the redraft by its offsets. */
function sentenceOf(comment, redraft) {
  if (typeof comment.sentence === "string" && comment.sentence.trim()) return comment.sentence;
  if (typeof redraft === "string" && Number.isInteger(comment.start) && Number.isInteger(comment.end)) {
    return redraft.slice(comment.start, comment.end);
  }
  return "";
}

/** Split the redraft into plain text and marker pieces, for showing it in the pane. */
export function splitMarkers(text) {
  const parts = [];
  let last = 0;
  for (const m of String(text ?? "").matchAll(/\[\d+\]/g)) {
    if (m.index > last) parts.push({ type: "text", text: text.slice(last, m.index) });
    parts.push({ type: "marker", text: m[0] });
    last = m.index + m[0].length;
  }
  if (last < String(text ?? "").length) parts.push({ type: "text", text: text.slice(last) });
  return parts;
}
