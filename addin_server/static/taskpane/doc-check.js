// The document check: defined-term and cross-reference problems in the open document,
// each with the paragraph it is in so the pane can select it. Runs in the pane on
// readParagraphs() output; nothing is sent anywhere. Pure functions, unit-tested, and
// measured on real agreements with planted errors (benchmarks/conform/doc_check.mjs).
//
// Findings: {kind, term, message, index, search}
//   kind: "undefined" | "defined-twice" | "unused" | "capitalisation" | "missing-section"

import { definitions as readDefinitions, normaliseNumber, sectionMap } from "./document-profile.js";

export const KINDS = Object.freeze({
  undefined: "Used but not defined",
  "defined-twice": "Defined twice, differently",
  unused: "Defined but not used",
  capitalisation: "Inconsistent capitals",
  "missing-section": "Refers to a missing section",
});

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const FORMS = "(?:s|es)?(?:[\u2019']s|[\u2019'])?";
// Capitalised phrases that are names, not defined terms.
const NOT_TERMS = new Set([
  "United States", "United Kingdom", "European Union", "European Economic Area", "New York", "Standard Terms Version",
  "Internal Revenue Code", "Internal Revenue Service", "Common Paper", "Creative Commons", "Bonterms", "Securities Act",
  "Exchange Act", "Board of Directors", "Microsoft Word", "Court of Chancery", "Supreme Court", "District Court",
]);
const MONTHS = /^(?:January|February|March|April|May|June|July|August|September|October|November|December)$/;
const STATE_WORDS = /^(?:State|Commonwealth|Province|County|City|District|Republic|Kingdom|United|European)$/;
// Names of laws, bodies and documents: "Bribery Act", "Cloud Service Agreement".
const NAME_ENDS = /\s(?:Act|Convention|Regulation|Code|Department|Commission|Office|Council|Treaty|Rules|Agreement|Addendum|Version|Inc|Corp|LLC|Ltd)$/;
// Words that start sentences: at a sentence start they are capitalised for that reason.
const STARTERS = /^(?:The|This|That|These|Those|Each|Every|Any|All|No|Neither|Either|If|In|On|Upon|For|To|By|As|At|After|Before|During|Unless|Except|Subject|Notwithstanding|Where|When|While|Such|Its|Their|A|An|Both|Either|Nothing|Following|Within|Without|Under|With|From|Until|Only|Other|Our|Your|We|You|It|Including|Provided|Promptly|Otherwise|Further)$/;
const CONNECTOR = /^(?:of|for|de|du)$/;
// Words that make a run of capitalised words the name of a law, body, list or convention, not a
// defined term: "Office of Foreign Assets Control", "Specially Designated Nationals and Blocked
// Persons List", "Occupational Safety and Health Administration" (issue 23: tuning agreements).
const INSTITUTION = /^(?:Act|Acts|Convention|Regulation|Regulations|Code|Department|Commission|Office|Council|Treaty|Rules|Administration|Agency|Authority|Bureau|Nations|List|Court|Union|Organization|Institute|Association|Directive|Statute|Statutes)$/;
// The document's own parts and kinds of document: its title and "Standard Terms" are not terms to define.
const DOCUMENT_PART = /(?:^|\s)(?:Standard Terms|Cover Page|Cover Terms|Key Terms|Framework Terms|Order Form)(?:\s|$)|\s(?:Letter|Consent|Resolution|Resolutions)$/;
const US_STATES = new Set(("Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho " +
  "Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi Missouri " +
  "Montana Nebraska Nevada Hampshire Jersey Mexico York Carolina Dakota Ohio Oklahoma Oregon Pennsylvania Rhode Island " +
  "Tennessee Texas Utah Vermont Virginia Washington Wisconsin Wyoming Columbia Puerto Rico").split(" "));

/** The run of capitalised words around `start`..`end`, across "and", "of", "the", "on", "for", "&". */
function fullName(text, start, end) {
  const word = String.raw`\p{Lu}[\p{L}'\u2019\-]*`;
  const joint = String.raw`(?:\s+(?:and|of|the|on|for|&))*\s+`;
  const left = text.slice(Math.max(0, start - 120), start).match(new RegExp(`(?:${word}${joint})+$`, "u"));
  const right = text.slice(end, end + 120).match(new RegExp(`^(?:${joint}${word})+`, "u"));
  return `${left ? left[0] : ""}${text.slice(start, end)}${right ? right[0] : ""}`;
}

/** True when a capitalised phrase is a name (a law, a body, a place, a document), not a term to define. */
function isName(phrase, text, start) {
  const words = phrase.split(/\s+/);
  if (NOT_TERMS.has(phrase) || NAME_ENDS.test(phrase) || DOCUMENT_PART.test(phrase)) return true;
  if (words.some((w) => MONTHS.test(w) || STATE_WORDS.test(w) || US_STATES.has(w.split("-")[0]))) return true;
  if (/^\s*:/.test(text.slice(start + phrase.length))) return true; // a label: "Fee for Pilot Period: ..."
  const name = fullName(text, start, start + phrase.length).split(/\s+/);
  if (name.some((w) => INSTITUTION.test(w) || US_STATES.has(w))) return true;
  return name.length >= 3 && name.at(-1) === "Law"; // "Delaware General Corporation Law", not "Governing Law"
}

/** Text with quoted terms, cross-reference headings and placeholders blanked (same length). */
function prose(text) {
  const blank = (m) => " ".repeat(m.length);
  return text
    .replace(/[\u201c"][^\u201c\u201d"]{0,80}[\u201d"]/g, blank)
    .replace(/\b(?:Sections?|Clauses?|Articles?)\s+[\d.()a-z]+(?:\s*\([^)]{1,80}\))?(?:\s*(?:,|and|or)\s*[\d.()a-z]+\s*(?:\([^)]{1,80}\))?)*/g, blank)
    .replace(/[{[][^\]}]{0,120}[\]}]/g, blank);
}

/** Capitalised multi-word phrases used mid-sentence: "Increased Claims", "Statement of Work". */
function capitalisedPhrases(text) {
  const out = [];
  const re = /\p{Lu}\p{Ll}[\p{L}\-]*(?: (?:of|for|de|du) \p{Lu}\p{Ll}[\p{L}\-]*| \p{Lu}\p{Ll}[\p{L}\-]*)+/gu;
  for (const m of text.matchAll(re)) {
    let phrase = m[0];
    let start = m.index;
    const before = text.slice(0, start).trimEnd();
    const first = phrase.split(/\s+/)[0];
    const full = phrase;
    if ((!before || /[.!?:;(\u2022]$/.test(before) || STARTERS.test(first)) && (STARTERS.test(first) || phrase.split(/\s+/).length > 2)) {
      // Sentence start: the first word may just be capitalised for that reason.
      const rest = phrase.replace(/^\S+\s+(?:(?:of|for)\s+)?/, "");
      start += phrase.length - rest.length;
      phrase = rest;
    }
    if (phrase.split(/\s+/).length >= 2) out.push({ phrase, start, full });
  }
  return out;
}

/** A defined term's base form: "Claims" -> "claim", "Customer’s" -> "customer". */
const base = (t) => t.toLowerCase().replace(/[\u2019']s?$/, "").replace(/(?:ies)$/, "y").replace(/(?<!s)s$/, "");

function headingLead(text) {
  const lead = text.match(/^\s*(?:[\d.()a-z]{1,8}\s+)?([^.:\u2014]{2,80}?)[.:\u2014]\s+\p{Lu}/u);
  return lead && lead[1].split(/\s+/).length <= 8 ? lead[0].length : 0;
}

function undefinedTerms(paragraphs, known, headings) {
  const seen = new Map();
  for (const p of paragraphs) {
    const text = String(p.text ?? "");
    if (text.split(/\s+/).length <= 12 && !/[.;:]\s|[.;:]$/.test(text.trim())) continue; // a heading, numbered or not
    if (text.split(/\s+/).length < 4) continue; // labels and table headers, not prose
    const skip = headingLead(text);
    const blanked = prose(text);
    for (const { phrase, start, full } of capitalisedPhrases(blanked)) {
      if (start < skip) continue;
      const words = phrase.split(/\s+/);
      if (isName(phrase, blanked, start)) continue;
      // "Passive Public Holdings" at a sentence start is the defined term, not "Public Holdings".
      if (known.has(base(phrase)) || known.has(base(full)) || [...headings].some((h) => h.includes(phrase.toLowerCase()))) continue;
      // A defined term followed or preceded by another capitalised word ("Customer Content Policy" is new; "Provider Customer" is two terms).
      if (words.every((w) => CONNECTOR.test(w) || known.has(base(w)))) continue;
      const key = words.map(base).join(" ");
      if (!seen.has(key)) seen.set(key, { kind: "undefined", term: phrase, index: p.index, search: phrase, count: 0 });
      seen.get(key).count += 1;
    }
  }
  return [...seen.values()].map((f) => ({ ...f, message: `\u201c${f.term}\u201d is used${f.count > 1 ? ` ${f.count} times` : ""} but not defined.` }));
}

function definedTwice(defs) {
  const byTerm = new Map();
  for (const d of defs) {
    const key = d.term.toLowerCase();
    if (!byTerm.has(key)) byTerm.set(key, []);
    byTerm.get(key).push(d);
  }
  const out = [];
  const norm = (t) => t.replace(/^[\s\d.()a-z]{0,8}(?=[\u201c"])/i, "").replace(/\s+/g, " ").trim().toLowerCase();
  for (const list of byTerm.values()) {
    const texts = new Set(list.map((d) => norm(d.text)));
    if (list.length < 2 || texts.size < 2) continue;
    const where = list.map((d) => (d.section ? `section ${d.section}` : `paragraph ${d.index + 1}`)).join(" and ");
    out.push({ kind: "defined-twice", term: list[0].term, index: list[1].index, search: list[0].term, message: `\u201c${list[0].term}\u201d is defined ${list.length} times, differently (${where}).` });
  }
  return out;
}

/**
 * Unused definitions and odd capitals, in one pass over the paragraphs: a single
 * case-insensitive pattern of every defined term (longest first), so 2,000 terms in a
 * 2,000-paragraph document stay one regular-expression scan per paragraph.
 */
function usage(paragraphs, defs) {
  const terms = [...new Map(defs.map((d) => [d.term, d])).values()].map((d) => d.term);
  if (!terms.length) return [];
  // Other forms a use may take: the singular of a plural term ("Covered Employees" -> "a Covered
  // Employee") and the -ies plural ("High Risk Activity" -> "High Risk Activities").
  const other = (t) => (/[^s\s]s$/.test(t) && /\s/.test(t) ? t.slice(0, -1) : /[^aeiou]y$/.test(t) ? `${t.slice(0, -1)}ies` : null);
  const byLower = new Map(terms.flatMap((t) => (other(t) ? [[other(t).toLowerCase(), t]] : [])));
  for (const t of terms) byLower.set(t.toLowerCase(), t);
  const definedAt = new Map();
  for (const d of defs) definedAt.set(d.term, new Set([...(definedAt.get(d.term) ?? []), d.index]));
  const alternatives = [...byLower.keys()].sort((a, b) => b.length - a.length).map(esc).join("|");
  const pattern = new RegExp(`(?<![\\p{L}\u201c"])(${alternatives})${FORMS}(?![\\p{L}\u201d"])`, "giu");
  const used = new Map(terms.map((t) => [t, 0]));
  const odd = new Map();
  for (const p of paragraphs) {
    const text = String(p.text ?? "");
    const capitals = text !== text.toUpperCase();
    for (const m of text.matchAll(pattern)) {
      const form = m[1];
      const term = byLower.get(form.toLowerCase());
      if (form === term || form === other(term)) {
        used.set(term, used.get(term) + 1);
        continue;
      }
      if (!capitals || odd.has(term)) continue;
      const sentenceStart = m.index === 0 || /(?:^|[.!?:;]\s*)$/.test(text.slice(0, m.index).trimEnd());
      if (sentenceStart && form.slice(1) === term.slice(1)) continue;
      if (!/\s/.test(term) && form === form.toLowerCase()) continue; // "services" as a plain word
      if (form === form.toUpperCase() && form.length > 3) continue; // a heading in capitals
      odd.set(term, { index: p.index, form });
    }
  }
  const out = [];
  const firstDefinition = new Map();
  for (const d of defs) if (!firstDefinition.has(d.term)) firstDefinition.set(d.term, d);
  for (const term of terms) {
    const d = firstDefinition.get(term);
    // Its own defining paragraph names it once ("“X” means" is not matched: the quote precedes it).
    if (!used.get(term)) out.push({ kind: "unused", term, index: d.index, search: term, message: `\u201c${term}\u201d is defined but never used.` });
    const o = odd.get(term);
    if (o) out.push({ kind: "capitalisation", term, index: o.index, search: o.form, message: `\u201c${o.form}\u201d: the defined term is \u201c${term}\u201d.` });
  }
  return out;
}

const REF = /\b(Sections?|Clauses?|Articles?)\s+((?:\d{1,3}(?:\.\d{1,3})*(?:\([a-z0-9]{1,4}\))*)(?:\s*\([^)]{1,80}\))?(?:\s*(?:,\s*(?:and|or)?|and|or|through|to)\s*\d{1,3}(?:\.\d{1,3})*(?:\([a-z0-9]{1,4}\))*(?:\s*\([^)]{1,80}\))?)*)/g;

/** Cross-references in a text: [{number, at}] ("Sections 8.1 (Damages Waiver) and 8.2" gives two). */
export function crossReferences(text) {
  const out = [];
  for (const m of String(text ?? "").matchAll(REF)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 40);
    if (/^\s*(?:of|in|to)\s+(?:the\s+)?(?!this\b)\p{Lu}/u.test(after) && !/^\s*of\s+this\b/.test(after)) continue; // another document's
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    if (/\b(?:Code|Act|Statutes?|Stat\.|U\.S\.C\.|C\.F\.R\.|Law|Rules?|Regulations?)\s*(?:,|§)?\s*$/.test(before)) continue; // a statute's section
    const listed = m[2].replace(/\([^)]{5,80}\)/g, " ");
    for (const n of listed.matchAll(/\d{1,3}(?:\.\d{1,3})*(?:\([a-z0-9]{1,4}\))*/g)) out.push({ number: n[0], at: m.index, text: m[0] });
  }
  return out;
}

function missingSections(paragraphs, sections) {
  const numbers = new Set(sections.map((s) => s.number));
  if (![...numbers].some((n) => /^\d/.test(n))) return []; // no numbered sections: nothing to check against
  // "Section 141(k)" in a document of 12 sections is a statute's ("remove a director (Section 141(k))").
  const top = Math.max(0, ...[...numbers].map((n) => parseInt(n, 10)).filter(Number.isFinite));
  const statute = (n) => parseInt(n, 10) >= 50 && parseInt(n, 10) > 3 * top;
  const textAt = new Map(paragraphs.map((p) => [p.index, String(p.text ?? "")]));
  const exists = (ref) => {
    const n = normaliseNumber(ref);
    if (numbers.has(n)) return true;
    const [, main, sub] = n.match(/^([\d.]+)((?:\([a-z0-9]+\))*)$/) ?? [];
    if (!main || !numbers.has(main)) return false;
    if (!sub) return true;
    const s = sections.find((x) => x.number === main);
    return textAt.get(s.index)?.includes(sub.match(/\([a-z0-9]+\)/)[0]) ?? false; // (a) written inside the paragraph
  };
  const out = [];
  for (const p of paragraphs) {
    for (const ref of crossReferences(p.text)) {
      if (exists(ref.number) || statute(ref.number)) continue;
      out.push({ kind: "missing-section", term: ref.number, index: p.index, search: ref.text.slice(0, 255), message: `Refers to section ${ref.number}, which this document does not have.` });
    }
  }
  return out;
}

/**
 * Every finding for the document, grouped in KINDS order. `parties` (terms) count as
 * defined for the undefined-term check.
 */
export function checkDocument(paragraphs, { parties = [] } = {}) {
  const list = Array.isArray(paragraphs) ? paragraphs : [];
  const sections = sectionMap(list);
  const defs = readDefinitions(list, sections);
  const known = new Set([...defs.map((d) => base(d.term)), ...parties.map(base)]);
  const headings = new Set(sections.map((s) => s.heading.toLowerCase()).filter(Boolean));
  const findings = [
    ...undefinedTerms(list, known, headings),
    ...definedTwice(defs.filter((d) => d.how === "quoted")),
    ...usage(list, defs.filter((d) => d.how === "quoted")),
    ...missingSections(list, sections),
  ];
  const order = Object.keys(KINDS);
  return findings.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.index - b.index);
}
