// Adapting a precedent to the lawyer's document before Insert: the precedent's own clause
// number and heading are dropped (the lawyer's are kept when their clause has them), and its
// capitals follow the lawyer's clause (an all-capitals precedent becomes sentence case with the
// lawyer's terms capitalised, and the other way round). Which words are the lawyer's terms, and
// how the document writes them, is the server's reading (POST /api/v1/document `terms`, from
// index_builder/reading): the pane reads no terms itself. Without that reading an all-capitals
// precedent keeps its capitals, and the change list says so. Pure functions, unit-tested.

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

/**
 * The terms the lawyer's document writes, as the server read them (the POST /api/v1/document
 * answer's `terms`: definitions, parties, what the document calls itself, capitalised terms its
 * sentences use), each in every form the server reads its uses in (`forms`: plural and
 * possessive, "Supplier's", "Customers"), longest first; null when the server sent no terms (an
 * older server, or no reading at all), so that the caller says so instead of guessing. A server
 * that sent no forms: the terms as written only. Terms in lower case are ordinary words: left out.
 */
export function documentTerms(profile) {
  if (!profile || !Array.isArray(profile.terms)) return null;
  const usable = (t) => typeof t === "string" && /\p{Lu}/u.test(t) && t.trim() === t && t.length <= 120;
  const forms = profile.forms && typeof profile.forms === "object" ? profile.forms : {};
  const out = [];
  for (const term of profile.terms.filter(usable)) {
    const written = Array.isArray(forms[term]) ? forms[term].filter(usable) : [];
    out.push(...written.filter((f) => f !== term), term);
  }
  return [...new Set(out)];
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Sentence case for an all-capitals text, with the document's `terms` (each form as written,
 * documentTerms) restored where the text uses them whole: never inside a longer word, and a
 * term of several words only as a whole. The forms are the server's: no endings are read here.
 */
export function sentenceCase(text, terms = []) {
  let out = String(text ?? "").toLowerCase();
  const longest = [...new Set(terms)].sort((a, b) => b.length - a.length);
  for (const term of longest) {
    const lower = term.toLowerCase();
    if (lower === term) continue;
    const words = lower.split(/\s+/).filter(Boolean).map(escape).join("\\s+");
    // The term's own letters in lower case only: a longer form restored first is not matched again.
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}\\-])${words}(?![\\p{L}\\p{N}\\-])`, "gu");
    out = out.replace(pattern, (found) => (/\s/.test(term) ? spaced(term, found) : term));
  }
  out = out.replace(/(^\s*|[.!?]\s+|[:;]\s*\n\s*)(\p{Ll})/gu, (_, lead, ch) => lead + ch.toUpperCase());
  return out.replace(/\bi\b/g, "I");
}

/** `term` with the spacing the text had between its words (a line break stays a line break). */
function spaced(term, found) {
  const gaps = found.match(/\s+/g) ?? [];
  return term.split(/\s+/).map((w, i) => (i ? gaps[i - 1] ?? " " : "") + w).join("");
}

/** True when Insert would put `precedentText` into sentence case: it needs the document's terms. */
export function needsTerms(precedentText, lawyerText, source = {}) {
  const body = splitLabel(precedentText, source?.heading).body || String(precedentText ?? "").trim();
  const ours = splitLabel(lawyerText);
  return isMostlyCapitals(body) && !isMostlyCapitals(ours.body || lawyerText);
}

/**
 * The text to insert in place of `lawyerText`, and what was changed, in words:
 * {text, changes: [..]}. `source` is the result's source ({section, heading}); `terms` the
 * document's terms as the server read them (documentTerms), or null when there is no reading:
 * an all-capitals precedent then keeps its capitals, and the changes say why.
 */
export function adaptPrecedent(precedentText, lawyerText, source = {}, terms = null) {
  const theirs = splitLabel(precedentText, source?.heading);
  const ours = splitLabel(lawyerText);
  const changes = [];
  let body = theirs.body || String(precedentText ?? "").trim();
  if (theirs.number || theirs.heading) {
    const what = [theirs.number && `number ${theirs.number.replace(/\.$/, "")}`, theirs.heading && `heading “${theirs.heading}”`].filter(Boolean).join(" and ");
    changes.push(`dropped the precedent's ${what}`);
  }
  if (isMostlyCapitals(body) && !isMostlyCapitals(ours.body || lawyerText)) {
    if (Array.isArray(terms)) {
      body = sentenceCase(body, terms);
      changes.push("changed its capitals to sentence case like your clause");
    } else {
      changes.push("left its capitals as written: your document's defined terms could not be read, so it was not put in sentence case");
    }
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
