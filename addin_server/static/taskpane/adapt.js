// Adapting a precedent to the lawyer's document before Insert: the precedent's own clause
// number and heading are dropped (the lawyer's are kept when their clause has them), and its
// capitals follow the lawyer's clause (an all-capitals precedent becomes sentence case with the
// lawyer's defined terms capitalised, and the other way round). Pure functions, unit-tested.

import { isMostlyCapitals } from "./blackline.js";
import { openLine } from "./source-link.js";

const NUMBER = /^\s*((?:(?:section|clause|article|§)\s*)?(?:\d+(?:\.\d+)*\.?|\((?:[a-z]{1,2}|[ivxlc]{1,6}|\d{1,3})\)|(?:[a-z]|[ivxlc]{1,6})[.)])(?=\s))\s*/i;
const HEADING_END = /^([^.:\n\u2014]{1,80}?)\s*(?:[.:\u2014]|\s[-\u2013]\s|\n)\s+/;
const VERBS = /\b(?:is|are|was|were|be|been|shall|will|may|must|can|should|would|has|have|had|does|do|agrees?)\b/i;
const SMALL_WORDS = new Set(["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "from", "upon"]);

/** True when every significant word starts with a capital (or the whole phrase is in capitals). */
function looksLikeHeading(phrase) {
  const words = phrase.split(/\s+/).filter(Boolean);
  if (!words.length || words.length > 8) return false;
  if (isMostlyCapitals(phrase) || phrase === phrase.toUpperCase()) return /\p{L}/u.test(phrase);
  if (words.every((w, i) => (i > 0 && SMALL_WORDS.has(w.toLowerCase())) || /^[\p{Lu}\d("“']/u.test(w))) return true;
  // A short sentence-case heading ("Liability cap"): capital first, few words, no verb.
  return words.length <= 4 && /^\p{Lu}/u.test(words[0]) && !VERBS.test(phrase);
}

const same = (a, b) => a.toLocaleLowerCase().replace(/\s+/g, " ").trim() === b.toLocaleLowerCase().replace(/\s+/g, " ").trim();

/**
 * Split a clause into {number, heading, body}: "12.1 Cap on liability. Subject to..." gives
 * "12.1", "Cap on liability" and "Subject to...". `knownHeading` (the index's heading for the
 * clause) is trusted over the shape of the words.
 */
export function splitLabel(text, knownHeading = "") {
  let rest = String(text ?? "");
  let number = "";
  const num = rest.match(NUMBER);
  if (num) {
    number = num[1];
    rest = rest.slice(num[0].length);
  }
  let heading = "";
  const head = rest.match(HEADING_END);
  if (head) {
    const phrase = head[1].trim();
    const known = String(knownHeading ?? "").trim();
    const tail = rest.slice(head[0].length);
    if ((known && same(phrase, known)) || (looksLikeHeading(phrase) && /^[\p{Lu}\p{N}("“']/u.test(tail))) {
      heading = phrase;
      rest = tail;
    }
  }
  return { number, heading, body: rest.trim() };
}

/** Words the lawyer's clause capitalises mid-sentence (defined terms): lower case -> as written. */
export function definedTerms(text) {
  const terms = new Map();
  const source = String(text ?? "");
  for (const m of source.matchAll(/\p{L}[\p{L}'’\-]*/gu)) {
    const word = m[0];
    const before = source.slice(0, m.index).trimEnd();
    const sentenceStart = !before || /[.!?:;(“"]$/.test(before);
    if (!sentenceStart && /^\p{Lu}/u.test(word) && word !== word.toUpperCase()) terms.set(word.toLowerCase(), word);
    if (word.length > 1 && word === word.toUpperCase() && !isMostlyCapitals(source)) terms.set(word.toLowerCase(), word); // an acronym
  }
  return terms;
}

/** Sentence case for an all-capitals text, with `terms` (lower -> written) restored. */
export function sentenceCase(text, terms = new Map()) {
  const lower = String(text ?? "").toLowerCase();
  let out = lower.replace(/\p{L}[\p{L}'’\-]*/gu, (word) => terms.get(word) ?? word);
  out = out.replace(/(^\s*|[.!?]\s+|[:;]\s*\n\s*)(\p{Ll})/gu, (_, lead, ch) => lead + ch.toUpperCase());
  return out.replace(/\bi\b/g, "I");
}

/**
 * The text to insert in place of `lawyerText`, and what was changed, in words:
 * {text, changes: [..]}. `source` is the result's source ({section, heading}).
 */
export function adaptPrecedent(precedentText, lawyerText, source = {}) {
  const theirs = splitLabel(precedentText, source?.heading);
  const ours = splitLabel(lawyerText);
  const changes = [];
  let body = theirs.body || String(precedentText ?? "").trim();
  if (theirs.number || theirs.heading) {
    const what = [theirs.number && `number ${theirs.number.replace(/\.$/, "")}`, theirs.heading && `heading “${theirs.heading}”`].filter(Boolean).join(" and ");
    changes.push(`dropped the precedent's ${what}`);
  }
  if (isMostlyCapitals(body) && !isMostlyCapitals(ours.body || lawyerText)) {
    body = sentenceCase(body, definedTerms(lawyerText));
    changes.push("changed its capitals to sentence case like your clause");
  } else if (isMostlyCapitals(ours.body || lawyerText) && !isMostlyCapitals(body)) {
    body = body.toUpperCase();
    changes.push("put it in capitals like your clause");
  }
  const label = [ours.number, ours.heading && `${ours.heading}.`].filter(Boolean).join(" ");
  if (label) changes.push(`kept your ${[ours.number && "number", ours.heading && "heading"].filter(Boolean).join(" and ")}`);
  return { text: label ? `${label} ${body}` : body, changes };
}

/**
 * The Word comment recording where an inserted precedent came from and how it was adapted,
 * quoting the passage that best matched the lawyer's clause (the server's first span) when
 * the precedent is long enough to have one.
 */
export function insertComment(source, changes = [], text = "", spans = []) {
  const s = source && typeof source === "object" ? source : {};
  const str = (v) => (typeof v === "string" ? v.trim() : "");
  const where = str(s.citation) || [str(s.document) || str(s.doc_id), str(s.section), str(s.heading)].filter(Boolean).join(", ") || "a precedent";
  const file = str(s.file);
  const lines = [`Inserted from precedent: ${where}${file ? ` (${file})` : ""}.`];
  const passage = matchingPassage(text, spans);
  if (passage) lines.push(`Best match with your clause: \u201c${passage}\u201d`);
  if (changes.length) lines.push(`Adapted: ${changes.join("; ")}.`);
  if (openLine(s)) lines.push(openLine(s));
  return lines.join("\n");
}

/** The text of the first valid span (offsets inside the text), at most 300 characters. */
export function matchingPassage(text, spans) {
  if (typeof text !== "string" || !Array.isArray(spans)) return "";
  const span = spans.find((x) => x && Number.isInteger(x.start) && Number.isInteger(x.end)
    && x.start >= 0 && x.end <= text.length && x.start < x.end);
  if (!span) return "";
  const quote = text.slice(span.start, span.end).replace(/\s+/g, " ").trim();
  return quote.length > 300 ? `${quote.slice(0, 297).replace(/\s+\S*$/, "")}…` : quote;
}
