// Strict mode on the result cards: "have we used these exact words?" Each precedent the server
// found (nearly) word for word gets a line saying so plainly ("Identical wording", or how much
// is the same) and, when it is not identical, the blackline of the differences (blackline.js,
// the same comparison as Compare). Curation (approved / deprecated wording) is shown on any
// card whose result carries it; the server adds it once curation exists.

import { capitalsOnly, compareTexts } from "./blackline.js";
import { renderBlackline } from "./compare-view.js";
import { h, plural } from "./dom.js";

// The server compares words without a clause's own number ("12.1", "(a)"); so does this view,
// with the number the server read (a result's or the lawyer's `reading.number`, from
// index_builder/reading/labels.py). Without a reading the number stays, and shows as a change.
export function withoutNumber(text, reading) {
  const str = String(text ?? "");
  const number = typeof reading?.number === "string" ? reading.number.trim() : "";
  const lead = str.trimStart();
  return number && lead.startsWith(number) ? lead.slice(number.length).trimStart() : str;
}

/** {text, identical, changes} for a strict match against the lawyer's words, or null. */
export function matchLine(match, comparison) {
  if (!match || typeof match !== "object" || typeof match.similarity !== "number") return null;
  const changes = comparison?.stats?.changes ?? 0;
  if (match.identical && !changes) return { text: "Identical wording", identical: true, changes };
  if (match.identical) {
    return { text: "Identical words; punctuation or capitals differ", identical: true, changes };
  }
  const share = Math.min(99, Math.floor(match.similarity * 100));
  return { text: `Nearly the same wording: ${share}% of the words in common, ${plural(changes, "change")}`, identical: false, changes };
}

/** "approved" | "deprecated" | "" from a result's curation field, whatever its shape. */
export function curationStatus(result) {
  const value = result?.curation;
  const status = typeof value === "string" ? value : typeof value?.status === "string" ? value.status : "";
  return ["approved", "deprecated"].includes(status.toLowerCase()) ? status.toLowerCase() : "";
}

/** The note above strict results: what was asked, in words. */
export function strictNote(minSimilarity, count) {
  const level = Math.round(minSimilarity * 100);
  const what = level >= 100 ? "the same words as your paragraph" : `at least ${level}% the same words as your paragraph`;
  return count
    ? `Same wording only: precedents with ${what}, most similar first. Capitals, punctuation and clause numbers are ignored.`
    : `No precedent uses ${what}. Lower the level, or turn off Same wording only to see similar clauses.`;
}

/**
 * Add the strict match line, the blackline and any curation badge to the cards in `list`
 * (rendered by cards.js for `results`, in order). `strict`: whether these are strict results;
 * `queryReading`: the server's reading of the lawyer's clause (its number, capitals).
 */
export function decorateCards(doc, list, results, queryText, strict, queryReading = null) {
  const cards = [...list.querySelectorAll(":scope > li.card")];
  cards.forEach((card, i) => {
    const result = results[i];
    if (!result) return;
    const curation = curationStatus(result);
    const source = card.querySelector(".source");
    if (curation && source && !card.querySelector(".curation")) {
      const label = curation === "approved" ? "Approved wording" : "Deprecated wording";
      source.after(h(doc, "p", { className: "curation-line" }, h(doc, "span", { className: `curation ${curation}`, title: `The firm marked this wording as ${curation}` }, label)));
    }
    if (!strict || !result.match || card.querySelector(".strict-match")) return;
    const comparison = compareTexts(withoutNumber(queryText, queryReading), withoutNumber(result.text, result.reading),
      { capitals: capitalsOnly(result.reading, queryReading) });
    const line = matchLine(result.match, comparison);
    if (!line) return;
    const note = h(doc, "p", { className: line.identical ? "strict-match identical" : "strict-match" }, line.text);
    (card.querySelector(".curation-line") || source)?.after(note);
    if (line.changes) {
      const area = h(doc, "div", { className: "strict-blackline" });
      renderBlackline(doc, area, comparison);
      note.after(area);
    }
  });
}
