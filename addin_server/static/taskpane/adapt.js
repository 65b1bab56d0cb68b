// Adapting a precedent to the lawyer's document before Insert: the precedent's own clause
// number and heading are dropped (the lawyer's are kept when their clause has them), and its
// capitals follow the lawyer's clause (an all-capitals precedent becomes sentence case with the
// lawyer's terms capitalised, and the other way round). The pane reads none of this itself:
// where a clause's number, heading and words are, whether they are in capitals and where its
// sentences start are the server's reading (each result's and the lawyer's `reading`, from
// index_builder/reading/labels.py), and which words are the lawyer's terms too (POST
// /api/v1/document `terms`). Without a reading the text goes in as written, and the change list
// says so. Pure functions, unit-tested.

import { openLine } from "./source-link.js";

/**
 * A clause's label as the server read it ({number, heading, body, capitals, sentences}: `body`
 * and `sentences` are offsets into `text`), as {number, heading, body (the text of its words),
 * capitals, starts (where its sentences start in `body`, or null)}; null when the server sent no
 * usable reading (an older server), so that the caller says so instead of guessing.
 */
export function readLabel(text, reading) {
  const str = typeof text === "string" ? text : "";
  const r = reading && typeof reading === "object" ? reading : null;
  if (!r || !Number.isInteger(r.body) || r.body < 0 || r.body > str.length || typeof r.capitals !== "boolean") return null;
  const at = r.body;
  const starts = Array.isArray(r.sentences)
    ? r.sentences.filter((s) => Number.isInteger(s) && s >= at && s <= str.length).map((s) => s - at)
    : null;
  return {
    number: typeof r.number === "string" ? r.number.trim() : "",
    heading: typeof r.heading === "string" ? r.heading.trim() : "",
    body: str.slice(at).trim(),
    capitals: r.capitals,
    starts,
  };
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
 * `starts`: where the text's sentences start, as the server read them (readLabel); each one's
 * first letter is a capital. Without them only the first letter is.
 */
export function sentenceCase(text, terms = [], starts = null) {
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
  for (const start of new Set([0, ...(Array.isArray(starts) ? starts : [])])) {
    let i = start;
    while (i < out.length && /[\s"\u201c\u2018']/u.test(out[i])) i++;
    if (i < out.length && /\p{Ll}/u.test(out[i])) out = out.slice(0, i) + out[i].toUpperCase() + out.slice(i + 1);
  }
  return out.replace(/\bi\b/g, "I");
}

/** `term` with the spacing the text had between its words (a line break stays a line break). */
function spaced(term, found) {
  const gaps = found.match(/\s+/g) ?? [];
  return term.split(/\s+/).map((w, i) => (i ? gaps[i - 1] ?? " " : "") + w).join("");
}

/**
 * True when Insert would put the precedent into sentence case, so that it needs the document's
 * terms: the server read the precedent's words (`readings.theirs`) in capitals and the lawyer's
 * (`readings.ours`) not.
 */
export function needsTerms(precedentText, lawyerText, readings = {}) {
  const theirs = readLabel(precedentText, readings?.theirs);
  const ours = readLabel(lawyerText, readings?.ours);
  return Boolean(theirs && ours && theirs.capitals && !ours.capitals);
}

/**
 * The text to insert in place of `lawyerText`, and what was changed, in words:
 * {text, changes: [..]}. `readings`: {theirs, ours}, the server's reading of the precedent's
 * and of the lawyer's clause (readLabel); `terms` the document's terms as the server read them
 * (documentTerms), or null when there is no reading: an all-capitals precedent then keeps its
 * capitals, and the changes say why.
 */
export function adaptPrecedent(precedentText, lawyerText, readings = {}, terms = null) {
  const theirs = readLabel(precedentText, readings?.theirs);
  const ours = readLabel(lawyerText, readings?.ours);
  if (!theirs || !ours) {
    // An older server: what to drop, keep or recase is not known, so nothing is.
    return { text: String(precedentText ?? "").trim(), changes: ["put in as written: the server did not say where the clause numbers, headings and capitals are, so none were adapted"] };
  }
  const changes = [];
  let body = theirs.body || String(precedentText ?? "").trim();
  if (theirs.number || theirs.heading) {
    const what = [theirs.number && `number ${theirs.number.replace(/\.$/, "")}`, theirs.heading && `heading “${theirs.heading}”`].filter(Boolean).join(" and ");
    changes.push(`dropped the precedent's ${what}`);
  }
  if (theirs.capitals && !ours.capitals) {
    if (Array.isArray(terms)) {
      body = sentenceCase(body, terms, theirs.starts);
      changes.push("changed its capitals to sentence case like your clause");
    } else {
      changes.push("left its capitals as written: your document's defined terms could not be read, so it was not put in sentence case");
    }
  } else if (ours.capitals && !theirs.capitals) {
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
