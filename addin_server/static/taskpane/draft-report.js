// What wrote the redraft (a drafting operation or the drafting assistant) and how it fared on
// the server's checks, in a lawyer's words, above the proposed clause; the edits an operation
// made, each with its reason; and the Word comments that carry those reasons on Apply.

import { redraftMarkers, searchPrefix, searchSuffix, stripMarkers } from "./citations.js";
import { append, h, plural, text } from "./dom.js";

export const CHECK_LABELS = {
  changed: "Changes your clause",
  instruction: "Does what you asked",
  markers: "Cites only the chosen precedents",
  quotations: "Quotes only what the precedents say",
  support: "Each citation backs its sentence",
  additions: "Adds nothing you did not ask for",
  meaning: "Keeps the meaning of what you did not ask to change",
  defined_terms: "Uses your document's defined terms",
  length: "Length as asked",
  second_reading: "An independent reading of the edits",
};

// Each part of the instruction as the checks found it on the draft (issue 38).
const PART_MARKS = { done: "✓ Done", partly: "✗ Partly done", not_done: "✗ Not done", wrong: "✗ Not as asked", unchecked: "? Not checked" };

/** The parts of the instruction: [{label, status, mark, reason, by}] (an older server sends none). */
export function instructionParts(answer) {
  return list(answer?.parts).map((p) => ({
    label: text(p.label) || text(p.kind),
    status: text(p.status),
    mark: PART_MARKS[p.status] || text(p.status),
    reason: text(p.reason),
    by: p.by === "operation" ? "drafting operation" : p.by === "model" ? "drafting assistant" : "",
  }));
}

/** "Done: mutual. Not done: 3 years." — the line a lawyer reads first. */
export function partsLine(answer) {
  const parts = instructionParts(answer);
  if (!parts.length) return "";
  const done = parts.filter((p) => p.status === "done").map((p) => p.label);
  const notDone = parts.filter((p) => ["partly", "not_done", "wrong"].includes(p.status)).map((p) => p.label);
  const unchecked = parts.filter((p) => p.status === "unchecked").map((p) => p.label);
  return [done.length ? `Done: ${done.join("; ")}.` : "", notDone.length ? `Not done: ${notDone.join("; ")}.` : "",
    unchecked.length ? `Not checked (read it): ${unchecked.join("; ")}.` : ""].filter(Boolean).join(" ");
}

const list = (value) => (Array.isArray(value) ? value.filter((x) => x && typeof x === "object") : []);

/** The checks the draft failed: [{name, label, reason}]. */
export function failedChecks(answer) {
  return list(answer?.checks)
    .filter((c) => c.passed === false)
    .map((c) => ({ name: text(c.name), label: CHECK_LABELS[c.name] || text(c.name), reason: text(c.reason) }));
}

/** The checks the server could not make on this draft ("not checked": the lawyer reads it): [{name, label, reason}]. */
export function uncheckedChecks(answer) {
  return list(answer?.checks)
    .filter((c) => c.status === "not_checked")
    .map((c) => ({ name: text(c.name), label: CHECK_LABELS[c.name] || text(c.name), reason: text(c.reason) }));
}

/** The producer in a line: "Made mutual by a drafting operation (no language model)". */
export function producerLine(answer) {
  const p = answer?.producer;
  if (!p || typeof p !== "object") return "";
  return text(p.reason) || (p.kind === "operation" ? `${text(p.label)} by a drafting operation.` : "Written by the drafting assistant.");
}

/**
 * The report shown above the proposed clause. `onAskOther(kind)` asks the server for the other
 * producer ("model" or "operation"); it is offered only where the server says it can be done.
 */
export function renderDraftReport(doc, answer, { onAskOther = null } = {}) {
  const producer = answer?.producer && typeof answer.producer === "object" ? answer.producer : null;
  const checks = list(answer?.checks);
  if (!producer && !checks.length) return null; // an older server: nothing to report
  const failed = failedChecks(answer);
  const unchecked = uncheckedChecks(answer);
  const passed = checks.filter((c) => c.passed === true);
  const byOperation = producer?.kind === "operation";
  const box = h(doc, "section", { className: "draft-report", id: "draft-report", "aria-label": "How this draft was made and checked" });
  append(
    box,
    producer
      ? h(doc, "p", { className: `producer ${byOperation ? "by-operation" : "by-model"}`, id: "draft-producer" },
        h(doc, "span", { className: "producer-badge" }, byOperation ? "Drafting operation" : "Drafting assistant"),
        " ",
        producerLine(answer))
      : null,
    partsList(doc, answer),
    failed.length
      ? h(doc, "div", { className: "checks-failed message-bar warning", role: "alert", id: "checks-failed" },
        h(doc, "strong", {}, `Check before you apply: ${plural(failed.length, "check")} failed.`),
        h(doc, "ul", {}, failed.map((f) => h(doc, "li", { dataset: { check: f.name } }, h(doc, "span", { className: "check-name" }, `${f.label}: `), f.reason))))
      : checks.length && !unchecked.length
        ? h(doc, "p", { className: "checks-passed", id: "checks-passed" }, `✓ Passed ${plural(passed.length, "check")}: ${passed.map((c) => CHECK_LABELS[c.name] || c.name).join(", ")}.`)
        : passed.length
          ? h(doc, "p", { className: "checks-passed some-unchecked", id: "checks-passed" }, `Passed ${plural(passed.length, "check")}: ${passed.map((c) => CHECK_LABELS[c.name] || c.name).join(", ")}.`)
          : null,
    // A check that could not read what it compares is said so, never counted as passed.
    unchecked.length
      ? h(doc, "div", { className: "checks-unchecked message-bar info", id: "checks-unchecked" },
        h(doc, "strong", {}, `Not checked (read the draft for these): ${plural(unchecked.length, "check")}.`),
        h(doc, "ul", {}, unchecked.map((c) => h(doc, "li", { dataset: { check: c.name } }, h(doc, "span", { className: "check-name" }, `${c.label}: `), c.reason))))
      : null,
    changesList(doc, answer),
    list(answer?.notes).length || (Array.isArray(answer?.notes) && answer.notes.length)
      ? h(doc, "ul", { className: "draft-notes" }, answer.notes.filter((n) => typeof n === "string" && n).map((n) => h(doc, "li", {}, n)))
      : null,
    otherButton(doc, producer, onAskOther),
  );
  return box;
}

function partsList(doc, answer) {
  const parts = instructionParts(answer);
  if (!parts.length) return null;
  const anyLeft = parts.some((p) => p.status !== "done");
  return h(doc, "div", { className: `instruction-parts${anyLeft ? " some-left" : ""}`, id: "instruction-parts" },
    h(doc, "p", { className: "parts-line" }, partsLine(answer)),
    parts.length > 1 || anyLeft
      ? h(doc, "ul", {}, parts.map((p) => h(doc, "li", { className: `part-${p.status}`, dataset: { status: p.status } },
        h(doc, "span", { className: "part-mark" }, `${p.mark}: `),
        h(doc, "span", { className: "part-label" }, p.label),
        p.by ? h(doc, "span", { className: "part-by" }, ` (${p.by})`) : null,
        p.status !== "done" && p.reason ? h(doc, "span", { className: "part-reason" }, ` — ${p.reason}`) : null)))
      : null);
}

function changesList(doc, answer) {
  const changes = list(answer?.changes);
  if (!changes.length) return null;
  return h(doc, "details", { className: "draft-changes", id: "draft-changes", open: true },
    h(doc, "summary", {}, `What the operation changed (${plural(changes.length, "edit")}), and why`),
    h(doc, "ol", {}, changes.map((c) => h(doc, "li", {},
      text(c.old) ? h(doc, "del", {}, text(c.old)) : null,
      text(c.old) && text(c.new) ? " → " : null,
      text(c.new) ? h(doc, "ins", {}, text(c.new)) : text(c.old) ? " (removed)" : null,
      h(doc, "span", { className: "change-reason" }, `: ${text(c.reason)}`)))));
}

function otherButton(doc, producer, onAskOther) {
  const other = producer?.alternative;
  if (!onAskOther || (other !== "model" && other !== "operation")) return null;
  const label = other === "model" ? "Ask the drafting assistant instead" : "Use the drafting operation instead";
  return h(doc, "div", { className: "button-row" },
    h(doc, "button", { type: "button", className: "secondary", id: "ask-other", dataset: { producer: other }, onclick: () => onAskOther(other) }, label));
}

/**
 * Word comments that record why an operation changed the clause: one, on the changed sentence
 * of `draftText` (the redraft as Apply puts it in). The redraft's sentences are the server's
 * reading (`redraft_sentences`: offsets into `redraft`, index_builder/reading/sentences.py);
 * without them (an older server) the comment is anchored on the whole draft.
 */
export function operationComments(answer, draftText) {
  const changes = list(answer?.changes);
  if (answer?.producer?.kind !== "operation" || !changes.length || !draftText) return [];
  const label = text(answer.producer.label) || "Drafting operation";
  const reasons = [...new Set(changes.map((c) => text(c.reason)).filter(Boolean))];
  const redraft = typeof answer.redraft === "string" ? answer.redraft : "";
  const markers = redraftMarkers(answer);
  const read = list(answer.redraft_sentences)
    .filter((s) => Array.isArray(s) && Number.isInteger(s[0]) && Number.isInteger(s[1]) && s[0] >= 0 && s[0] < s[1] && s[1] <= redraft.length)
    .map(([start, end]) => stripMarkers(redraft.slice(start, end), markers).trim())
    .filter(Boolean);
  const sentences = read.length ? read : [draftText];
  const changed = sentences.filter((s) => changes.some((c) => text(c.new) && s.includes(text(c.new))));
  const anchor = (changed[0] || sentences[0]).trim();
  return [{
    marker: "",
    clauseId: "",
    text: `${label} by a drafting operation (no language model): ${reasons.join("; ")}.`,
    search: searchPrefix(anchor),
    searchEnd: searchSuffix(anchor),
  }];
}
