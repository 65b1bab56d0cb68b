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
    if ((!before || /[.!?:;(\u2022]$/.test(before)) && (STARTERS.test(first) || phrase.split(/\s+/).length > 2)) {
      // Sentence start: the first word may just be capitalised for that reason.
      const rest = phrase.replace(/^\S+\s+(?:(?:of|for)\s+)?/, "");
      start += phrase.length - rest.length;
      phrase = rest;
    }
    if (phrase.split(/\s+/).length >= 2) out.push({ phrase, start });
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
    for (const { phrase, start } of capitalisedPhrases(prose(text))) {
      if (start < skip) continue;
      const words = phrase.split(/\s+/);
      if (NOT_TERMS.has(phrase) || NAME_ENDS.test(phrase) || words.some((w) => MONTHS.test(w) || STATE_WORDS.test(w))) continue;
      if (known.has(base(phrase)) || [...headings].some((h) => h.includes(phrase.toLowerCase()))) continue;
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

function usage(paragraphs, defs) {
  const out = [];
  const terms = [...new Map(defs.map((d) => [d.term, d])).values()];
  const definedAt = new Map();
  for (const d of defs) definedAt.set(d.term, new Set([...(definedAt.get(d.term) ?? []), d.index]));
  for (const d of terms) {
    const exact = new RegExp(`(?<![\\p{L}\u201c"])${esc(d.term)}${FORMS}(?![\\p{L}\u201d"])`, "gu");
    const loose = new RegExp(`(?<![\\p{L}\u201c"])${esc(d.term)}${FORMS}(?![\\p{L}\u201d"])`, "giu");
    let used = 0;
    let odd = null;
    for (const p of paragraphs) {
      const text = String(p.text ?? "");
      const own = definedAt.get(d.term).has(p.index);
      const exactCount = [...text.matchAll(exact)].length - (own ? 1 : 0);
      used += Math.max(0, exactCount);
      if (odd || text === text.toUpperCase()) continue;
      for (const m of text.matchAll(loose)) {
        const form = m[0].slice(0, d.term.length);
        if (form === d.term) continue;
        const sentenceStart = /(?:^|[.!?:;]\s*)$/.test(text.slice(0, m.index).trimEnd()) || m.index === 0;
        if (sentenceStart && form.slice(1) === d.term.slice(1)) continue;
        const single = !/\s/.test(d.term);
        if (single && form === form.toLowerCase()) continue; // "services" as a plain word
        if (form === form.toUpperCase() && form.length > 3) continue; // a heading in capitals
        odd = { index: p.index, form };
        break;
      }
    }
    if (!used) out.push({ kind: "unused", term: d.term, index: d.index, search: d.term, message: `\u201c${d.term}\u201d is defined but never used.` });
    if (odd) out.push({ kind: "capitalisation", term: d.term, index: odd.index, search: odd.form, message: `\u201c${odd.form}\u201d: the defined term is \u201c${d.term}\u201d.` });
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
      if (exists(ref.number)) continue;
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
