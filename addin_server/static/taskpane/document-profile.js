// What the pane knows about the open document, computed from readParagraphs() output:
// its defined terms (and where each is defined), its parties, its section map and how it
// refers to sections. Pure functions, no Office.js: unit-tested and run by the benchmarks on
// real agreements. `summaryForServer` is all the server is ever sent of the document
// (definitions, headings, numbers) unless the lawyer asks otherwise.

const OPEN_Q = "[\u201c\"]";
const CLOSE_Q = "[\u201d\"]";
const QUOTED = new RegExp(`${OPEN_Q}([^\u201c\u201d"\\n]{1,80})${CLOSE_Q}`, "g");
const MEANS = /^\s*[)\u2019']?\s*,?\s*(?:means|mean|shall mean|will mean|refers to|shall refer to|(?:shall |will )?(?:has|have) the meanings?|is defined|are defined)\b/i;
const CHAIN = /^\s*,?\s*(?:or|and)?\s*$/;
const PARENTHETICAL = /\(([^()]{1,160})\)/g;
const CONNECTORS = new Set("the a an each collectively together individually jointly hereinafter herein referred to as and or this such also any all".split(" "));
const MAX_TERM_WORDS = 8;
// Word the text uses before a section number ("Section 4.2", "Clause 4.2", "Article 4").
const REF_WORDS = ["Section", "Clause", "Article", "Paragraph"];

const cleanTerm = (t) => {
  const term = String(t).trim().replace(/^[,;:.]+|[,;:.]+$/g, "").trim();
  return term && /^[\p{L}\p{N}]/u.test(term) && term.split(/\s+/).length <= MAX_TERM_WORDS ? term : "";
};

/** Terms a paragraph defines: “X” means ..., “X” or “Y” means ..., (the “X”), (each, a “Party”). */
export function definedTermsIn(text) {
  const source = String(text ?? "");
  const found = [];
  const matches = [...source.matchAll(QUOTED)];
  let chain = [];
  matches.forEach((m, i) => {
    chain.push(m[1]);
    const next = matches[i + 1];
    const end = m.index + m[0].length;
    if (next && CHAIN.test(source.slice(end, next.index))) return; // “A” or “B” ...: wait for the last
    if (MEANS.test(source.slice(end, end + 60))) found.push(...chain.map(cleanTerm).filter(Boolean));
    chain = [];
  });
  for (const p of source.matchAll(PARENTHETICAL)) {
    const inside = p[1];
    const terms = [...inside.matchAll(QUOTED)].map((q) => cleanTerm(q[1])).filter(Boolean);
    const rest = inside.replace(QUOTED, " ").match(/[A-Za-z]+/g) ?? [];
    if (terms.length && rest.length <= 6 && rest.every((w) => CONNECTORS.has(w.toLowerCase()))) found.push(...terms);
  }
  return [...new Set(found)];
}

/** A number as written or displayed: "4.2." -> "4.2", "Section 5" -> "5", "(a)" -> "a". */
export function normaliseNumber(value) {
  return String(value ?? "").trim()
    .replace(/^(?:section|clause|article|paragraph|§)\s*/i, "")
    .replace(/\.$/, "")
    .replace(/^\(([^)]+)\)$/, "$1")
    .replace(/^([a-z]{1,4}|\d{1,3})\)$/i, "$1")
    .toLowerCase();
}

const TYPED_NUMBER = /^\s*((?:section|clause|article)\s+)?(\d{1,3}(?:\.\d{1,3})*\.?|\([a-z]{1,4}\)|[a-z]\.|\(\d{1,3}\))(?=\s)/i;
const DECIMAL = /^\d{1,3}(?:\.\d{1,3})*$/;

/** The paragraph's number: Word's automatic one, else one typed at its start; "" if none. */
function numberOf(p) {
  if (p.listString && !/^[\u2022\u25aa\u25cf\u2013\-\u00b7o\uf0b7]$/.test(p.listString.trim())) return p.listString.trim();
  const typed = String(p.text ?? "").match(TYPED_NUMBER);
  return typed ? typed[2] : "";
}

/** "Term. The Agreement ..." -> "Term"; a short heading paragraph is its own heading. */
function headingOf(p, number) {
  let text = String(p.text ?? "").trim();
  if (!p.listString && number) text = text.replace(TYPED_NUMBER, "").trim();
  if (!text) return "";
  const words = text.split(/\s+/);
  const defining = /[\u201c"]/.test(text);
  if (words.length <= 10 && !defining && !/[.;:]\s*\S/.test(text.replace(/\.$/, "")) && (p.isHeading || !/\.$/.test(text))) return text.replace(/[.:]$/, "");
  const lead = text.match(/^([^.:\u2014]{2,80}?)[.:\u2014]\s+\p{Lu}/u);
  if (lead && lead[1].split(/\s+/).length <= 8 && /^\p{Lu}/u.test(lead[1])) return lead[1].trim();
  return "";
}

/**
 * The section map: [{number, heading, index}], numbers as the document cites them ("4.2",
 * "4.2(a)"). A lettered or roman item under a decimal section is numbered from it, as a
 * cross-reference would name it ("Section 4.2(a)").
 */
export function sectionMap(paragraphs) {
  const out = [];
  let parent = "";
  for (const p of paragraphs) {
    if (p.inTable) continue;
    const number = numberOf(p);
    if (!number) continue;
    const plain = normaliseNumber(number);
    if (!plain) continue;
    let full = plain;
    if (DECIMAL.test(plain)) parent = plain;
    else if (parent && /^(?:[a-z]{1,4}|\d{1,3})$/i.test(plain)) full = `${parent}(${plain})`;
    out.push({ number: full, heading: headingOf(p, number), index: p.index });
  }
  return out;
}

/** The section a paragraph belongs to (the nearest numbered paragraph at or before it). */
function sectionAt(sections, index) {
  let found = "";
  for (const s of sections) {
    if (s.index > index) break;
    found = s.number;
  }
  return found;
}

const clip = (text, n) => (text.length > n ? `${text.slice(0, n - 1).replace(/\s+\S*$/, "")}\u2026` : text);

const PARTY_LABEL = /^\p{Lu}\p{Ll}[\p{L}\-]*(?:\s+\p{Lu}\p{Ll}[\p{L}\-]*){0,2}$/u;
const LEGAL_NAME = /^\s*\[\s*(?:full\s+)?legal\s+name\s+of\b/i;
const TABLE_LABEL = /^(?:\p{Lu}[\p{L}\-]*|of|and|for|&)(?:\s+(?:\p{Lu}[\p{L}\-]*|of|and|for|&)){1,5}$/u;

/**
 * Every definition: [{term, text, index, section, inTable, how}] (a term defined twice
 * appears twice). how: "quoted" (“X” means ..., (the “X”)) or "table": a key-terms table's
 * label cell ("Increased Claims") whose next cell holds the meaning, as on cover pages.
 */
export function definitions(paragraphs, sections = sectionMap(paragraphs)) {
  const out = [];
  paragraphs.forEach((p, i) => {
    const text = String(p.text ?? "");
    if (text.includes("\u201c") || text.includes('"')) {
      for (const term of definedTermsIn(text)) {
        out.push({ term, text: clip(text.trim(), 600), index: p.index, section: sectionAt(sections, p.index), inTable: Boolean(p.inTable), how: "quoted" });
      }
    }
    const label = text.trim().replace(/:$/, "");
    const next = p.inTable ? paragraphs.slice(i + 1, i + 4).find((q) => q.inTable && String(q.text ?? "").trim()) : null;
    // A one-word label counts only as a party's row: "Organisation" / "[Legal name of the employer]".
    const isLabel = TABLE_LABEL.test(label) || (PARTY_LABEL.test(label) && LEGAL_NAME.test(String(next?.text ?? "")));
    if (p.inTable && isLabel && label !== label.toUpperCase() && !/[.{}\[\]]/.test(label)) {
      if (next && !TABLE_LABEL.test(String(next.text).trim())) {
        out.push({ term: label, text: clip(`${label}: ${String(next.text).trim()}`, 600), index: p.index, section: sectionAt(sections, p.index), inTable: true, how: "table" });
      }
    }
  });
  return out;
}

const BETWEEN = /\b(?:by and )?between\s+(?:the\s+)?([\p{Lu}][\p{L}\s]{1,40}?)\s+and\s+(?:the\s+)?([\p{Lu}][\p{L}\s]{1,40}?)(?=[,.;(]|\s+(?:each|as|who|which|that|under|for|to|in|with|is|are|will|shall)\b)/u;

/**
 * The parties' names as the document uses them: terms defined in the opening paragraphs
 * (before the first numbered section) or as "party" in a definition, and the two
 * capitalised words of "between Company and Contractor". [{term, index}]
 */
export function parties(paragraphs, defs = definitions(paragraphs)) {
  const found = new Map();
  const firstSection = paragraphs.find((p) => !p.inTable && numberOf(p) && DECIMAL.test(normaliseNumber(numberOf(p))));
  const preambleEnd = firstSection ? firstSection.index : Math.min(paragraphs.length, 40);
  const add = (term, index) => {
    if (term && !found.has(term)) found.set(term, { term, index });
  };
  // "between Provider and Customer" (an agreement's preamble, or its definition of
  // "Agreement"): of the pairs of capitalised role words, the one the document uses most.
  const body = paragraphs.map((p) => String(p.text ?? "")).join("\n");
  const uses = (w) => (body.match(new RegExp(`\\b${escape(w)}\\b`, "g")) ?? []).length;
  let best = null;
  for (const p of paragraphs) {
    const m = String(p.text ?? "").match(BETWEEN);
    if (!m) continue;
    const pair = [m[1].trim(), m[2].trim()];
    if (!pair.every((w) => w.split(/\s+/).length <= 3 && /^\p{Lu}\p{Ll}/u.test(w) && !NOT_PARTY.test(w))) continue;
    const score = uses(pair[0]) + uses(pair[1]);
    if (!best || score > best.score) best = { pair, score, index: p.index };
  }
  if (best) best.pair.forEach((w) => add(w, best.index));
  // A cover page's key-terms table: "Company" / "[Legal name of employer]", "Employee" / ...
  // A row asking for a party's legal name names that party, whatever word the document uses
  // ("Staff Member" / "[Full legal name of the employee]"); issue 23, from the constructed tuning set.
  if (!best) {
    paragraphs.forEach((p, i) => {
      const label = String(p.text ?? "").trim().replace(/:$/, "");
      if (!p.inTable) return;
      const next = paragraphs.slice(i + 1, i + 4).find((q) => q.inTable && String(q.text ?? "").trim());
      const asksName = PARTY_LABEL.test(label) && !NOT_PARTY.test(label) && LEGAL_NAME.test(String(next?.text ?? ""));
      if ((ROLE_WORDS.test(label) || asksName) && uses(label) >= 3) add(label, p.index);
    });
  }
  for (const d of defs) {
    if (d.how !== "quoted" || NOT_PARTY.test(d.term) || d.term === d.term.toUpperCase()) continue;
    const before = d.index < preambleEnd && /\bbetween\b/i.test(d.text) && /\(\s*(?:each,?\s+)?(?:a|an|the)?\s*[\u201c"]/.test(d.text);
    const asParty = new RegExp(`[\u201c"]${escape(d.term)}[\u201d"]\\s*(?:means|shall mean|will mean)\\s+(?:the\\s+|a\\s+|each\\s+)?party\\b(?![\u2019'])`, "i").test(d.text);
    if (before || asParty) add(d.term, d.index);
  }
  return [...found.values()];
}

const ROLE_WORDS = /^(?:Provider|Customer|Company|Contractor|Consultant|Employee|Employer|Founder|Partner|Supplier|Client|Vendor|Licensor|Licensee|Buyer|Seller|Purchaser|Investor|Landlord|Tenant|Lender|Borrower|Discloser|Recipient)$/;
const NOT_PARTY = /\b(?:agreement|terms?|page|sheet|order|form|addendum|schedule|exhibit|parties|party|the|this|statement|SOW|NDA|DPA|LOI)\b/i;
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** How the document names its sections in cross-references: "Section", "Clause", ... (most used). */
export function referenceWord(paragraphs) {
  const counts = new Map(REF_WORDS.map((w) => [w, 0]));
  for (const p of paragraphs) {
    for (const m of String(p.text ?? "").matchAll(/\b(Sections?|Clauses?|Articles?|Paragraphs?)\s+\d/g)) {
      const word = m[1].replace(/s$/, "");
      counts.set(word, counts.get(word) + 1);
    }
  }
  const [best, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return n ? best : "Section";
}

/** Everything the pane derives from the document: {definitions, parties, sections, referenceWord, paragraphs}. */
export function documentProfile(paragraphs) {
  const list = Array.isArray(paragraphs) ? paragraphs : [];
  const sections = sectionMap(list);
  const defs = definitions(list, sections);
  return { definitions: defs, parties: parties(list, defs), sections, referenceWord: referenceWord(list), paragraphs: list.length };
}

// The server refuses bodies over ~180 kB (PRECEDENT_MAX_TEXT_CHARS x 6 + ...): a document with
// 2,000 definitions sends every term, but the defining sentence of the first 250 only.
export const SUMMARY_LIMITS = Object.freeze({ definitions: 2000, definitionTexts: 250, definitionChars: 160, sections: 800, headingChars: 60 });

/**
 * The part of the profile the server needs to conform a precedent: definitions (term,
 * defining sentence, section), parties, section numbers and headings, the reference word.
 * No other document text. Capped (SUMMARY_LIMITS) with `truncated` saying so.
 */
export function summaryForServer(profile) {
  const defs = profile.definitions.slice(0, SUMMARY_LIMITS.definitions);
  const sections = profile.sections.filter((s) => s.heading).slice(0, SUMMARY_LIMITS.sections);
  const withHeading = profile.sections.filter((s) => s.heading).length;
  return {
    definitions: defs.map((d, i) => ({ term: d.term, text: i < SUMMARY_LIMITS.definitionTexts ? clip(d.text, SUMMARY_LIMITS.definitionChars) : "", section: d.section })),
    parties: profile.parties.map((p) => p.term),
    sections: sections.map((s) => ({ number: s.number, heading: clip(s.heading, SUMMARY_LIMITS.headingChars) })),
    reference_word: profile.referenceWord,
    truncated: defs.length < profile.definitions.length || sections.length < withHeading || profile.definitions.length > SUMMARY_LIMITS.definitionTexts,
  };
}

/**
 * The search unit for a selected text: {unit: "definition"} when it defines a term
 * (“X” means ...), so Find precedent searches the library's definitions; {} otherwise.
 */
export function searchUnit(text) {
  const terms = definedTermsIn(text);
  return terms.length && /\bmeans?\b|has the meaning/i.test(String(text)) ? { unit: "definition", term: terms[0] } : {};
}
